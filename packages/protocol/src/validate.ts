import { FormatRegistry, type Static, type TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));
if (!FormatRegistry.Has('date')) FormatRegistry.Set('date', isRealDate);
if (!FormatRegistry.Has('uri')) FormatRegistry.Set('uri', (value) => URL.canParse(value));
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
}

export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string; readonly errors: readonly ValueError[] };

export interface Validator<T extends TSchema> {
  readonly schema: T;
  check(value: unknown): value is Static<T>;
  validate(value: unknown): ValidationResult<Static<T>>;
}

/** Compile a schema once; `validate` returns the value or a message that names the offending parameter. */
export function createValidator<T extends TSchema>(schema: T): Validator<T> {
  const compiled: TypeCheck<T> = TypeCompiler.Compile(schema);
  return {
    schema,
    check: (value): value is Static<T> => compiled.Check(value),
    validate(value) {
      if (compiled.Check(value)) return { ok: true, value };
      const errors = [...compiled.Errors(value)];
      return { ok: false, message: describeError(mostSpecific(errors)), errors };
    },
  };
}

type ObjectSchema = {
  type?: string;
  properties?: Record<string, unknown>;
  patternProperties?: Record<string, unknown>;
  additionalProperties?: unknown;
  'x-refused-parameters'?: readonly string[];
};

/**
 * The request without the top-level parameters its schema does not know (wire decisions: unknown parameters
 * are ignored, in bodies and queries, as the public protocol does: its clients send parameters newer than the
 * server). Known parameters are left for validation; so are the names a schema refuses on purpose
 * (`x-refused-parameters`, for example `writing_style` on the corrections-only endpoint). Nested objects are
 * not touched: an unknown rule name inside `configured_rules` is still an error.
 */
export function withoutUnknownParameters(schema: TSchema, value: unknown): unknown {
  const object = schema as ObjectSchema;
  if (object.type !== 'object' || object.additionalProperties !== false || object.patternProperties)
    return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const known = object.properties ?? {};
  const refused = object['x-refused-parameters'] ?? [];
  let result: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key) || refused.includes(key)) continue;
    result ??= { ...(value as Record<string, unknown>) };
    delete result[key];
  }
  if (!result) return value;
  // A key named `__proto__` was copied as an own property by the spread; `delete` above removed it.
  return result;
}

/**
 * A validator for requests: unknown top-level parameters are dropped (`withoutUnknownParameters`), then
 * the rest is validated exactly. `validate` returns the value without the unknown parameters.
 */
export function createRequestValidator<T extends TSchema>(schema: T): Validator<T> {
  const strict = createValidator(schema);
  return {
    schema,
    check: (value): value is Static<T> => strict.check(withoutUnknownParameters(schema, value)),
    validate: (value) => strict.validate(withoutUnknownParameters(schema, value)),
  };
}

/** Prefer the deepest error: a wrong element of an array says more than "expected union". */
function mostSpecific(errors: ValueError[]): ValueError | undefined {
  let best: ValueError | undefined;
  for (const error of errors) {
    if (error.type === ValueErrorType.Union && errors.length > 1) continue;
    if (!best || error.path.split('/').length > best.path.split('/').length) best = error;
  }
  return best ?? errors[0];
}

/** `/text/0` → `text[0]`. */
function parameterName(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

const TYPE_NAMES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.Array]: 'an array',
  [ValueErrorType.Boolean]: 'a boolean',
  [ValueErrorType.Integer]: 'an integer',
  [ValueErrorType.Number]: 'a number',
  [ValueErrorType.Object]: 'an object',
  [ValueErrorType.String]: 'a string',
};

const FORMAT_NAMES: Record<string, string> = {
  uuid: 'a UUID',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time (ISO 8601)',
  uri: 'a URL',
};

const quoteList = (values: readonly unknown[]) => values.map((value) => `'${String(value)}'`).join(', ');

type UnionOption = { const?: unknown; type?: string; anyOf?: UnionOption[]; items?: UnionOption };

/** The constants a union of literals allows (through nested unions), or `undefined` if it allows more. */
function unionConstants(options: readonly UnionOption[]): unknown[] | undefined {
  const values: unknown[] = [];
  for (const option of options) {
    if (option.const !== undefined) values.push(option.const);
    else if (option.anyOf) {
      const nested = unionConstants(option.anyOf);
      if (!nested) return undefined;
      values.push(...nested);
    } else return undefined;
  }
  return values.length > 0 ? values : undefined;
}

function describeUnion(name: string, options: readonly UnionOption[]): string {
  const values = unionConstants(options);
  if (values) return `Value for '${name}' not supported. Expected one of: ${quoteList(values)}.`;
  // A value or a list of values (`include`, `splitting_tags`): describe the value.
  const scalar = options.find((option) => option.type !== 'array');
  const array = options.find((option) => option.type === 'array');
  if (scalar && array && options.length === 2) {
    const listed = unionConstants([scalar]);
    if (listed) return `Value for '${name}' not supported. Expected one or more of: ${quoteList(listed)}.`;
    if (scalar.type) return `Parameter '${name}' must be a ${scalar.type} or an array of them.`;
  }
  return `Invalid value for '${name}'.`;
}

function describeError(error: ValueError | undefined): string {
  if (!error) return 'Invalid request.';
  const name = parameterName(error.path);
  const schema = error.schema as {
    maxItems?: number;
    minLength?: number;
    maxLength?: number;
    minimum?: number;
    maximum?: number;
    format?: string;
    description?: string;
    'x-values'?: readonly string[];
    anyOf?: { const?: unknown }[];
    properties?: Record<string, unknown>;
  };
  const typeName = TYPE_NAMES[error.type];
  if (typeName) return name ? `Parameter '${name}' must be ${typeName}.` : `The request must be ${typeName}.`;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `Missing required parameter '${name}'.`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `Unknown parameter '${name}'.`;
    case ValueErrorType.ObjectMinProperties:
      return `Expected at least one of: ${quoteList(Object.keys(schema.properties ?? {}))}.`;
    case ValueErrorType.ArrayMaxItems:
      return `Parameter '${name}' has too many items (at most ${schema.maxItems}).`;
    case ValueErrorType.ArrayMinItems:
      return `Parameter '${name}' must not be empty.`;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1
        ? `Parameter '${name}' must not be empty.`
        : `Parameter '${name}' is too short (at least ${schema.minLength} characters).`;
    case ValueErrorType.StringMaxLength:
      return `Parameter '${name}' is too long (at most ${schema.maxLength} characters).`;
    case ValueErrorType.StringFormat:
      return `Parameter '${name}' must be ${FORMAT_NAMES[schema.format ?? ''] ?? `in format '${schema.format}'`}.`;
    case ValueErrorType.StringPattern:
      if (schema['x-values']) {
        return `Value for '${name}' not supported. Expected one of: ${quoteList(schema['x-values'])}.`;
      }
      if (schema.format)
        return `Parameter '${name}' must be ${FORMAT_NAMES[schema.format] ?? schema.format}.`;
      return `Parameter '${name}' has an invalid format${schema.description ? ` (expected ${schema.description})` : ''}.`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      if (schema.maximum === undefined) return `Parameter '${name}' must be at least ${schema.minimum}.`;
      if (schema.minimum === undefined) return `Parameter '${name}' must be at most ${schema.maximum}.`;
      return `Parameter '${name}' must be between ${schema.minimum} and ${schema.maximum}.`;
    case ValueErrorType.Union:
      return describeUnion(name, schema.anyOf ?? []);
    default:
      return name ? `Invalid value for '${name}': ${error.message}.` : `Invalid request: ${error.message}.`;
  }
}
