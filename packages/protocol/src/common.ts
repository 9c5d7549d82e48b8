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
  description: 'a language code such as de or en-US',
});

export const DateTime = Type.String({ format: 'date-time' });
export const DateOnly = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** A comma-separated list of XML tag names, or the same as an array (wire decisions). */
export const TagList = Type.Union([Type.String(), Type.Array(Type.String())]);

/** `T | null`, written as JSON Schema `anyOf`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a list of string values, written as JSON Schema `anyOf` of constants (validation names the list). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) =>
  Type.Union(
    values.map((value) => Type.Literal(value as T[number])),
    options,
  );

function caseInsensitivePattern(value: string): string {
  return [...value]
    .map((char) => {
      const lower = char.toLowerCase();
      const upper = char.toUpperCase();
      if (lower !== upper) return `[${lower}${upper}]`;
      return char === '-' ? '-' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
}

/**
 * A language code from a fixed list, matched case-insensitively (`EN-us` is `en-US`). The list is kept
 * in the `x-values` keyword so a validation message can name it.
 */
export const LanguageCodeIn = (values: readonly string[], description?: string) =>
  Type.String({
    pattern: `^(${values.map(caseInsensitivePattern).join('|')})$`,
    'x-values': [...values],
    ...(description ? { description } : {}),
  });

/** A non-empty display name. */
export const Name = Type.String({ minLength: 1 });
