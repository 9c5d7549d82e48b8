import { type TSchema, Type } from '@sinclair/typebox';

/** A UUID in its canonical text form. */
export const Uuid = Type.String({
  format: 'uuid',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'UUID',
});

/** A language code as sent by a client: case-insensitive, BCP 47 shaped (`de`, `EN-us`, `zh-Hans`). */
export const LanguageCode = Type.String({
  minLength: 2,
  maxLength: 35,
  pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
  description: 'Language code, case-insensitive',
});

export const DateTime = Type.String({ format: 'date-time' });
export const DateOnly = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** A comma-separated list of XML tag names, or the same as an array (wire decisions). */
export const TagList = Type.Union([Type.String(), Type.Array(Type.String())]);

/** `T | null`, written as JSON Schema `anyOf`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
