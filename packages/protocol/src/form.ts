import type { TSchema } from '@sinclair/typebox';

/** Array parameters that a form body sends comma-joined (wire decisions: "Encoding"). */
export const COMMA_JOINED_PARAMETERS = new Set(['glossary_ids', 'target_languages']);

type SchemaNode = TSchema & {
  type?: string;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
};

function acceptsType(schema: SchemaNode | undefined, type: string): boolean {
  if (!schema) return false;
  if (schema.type === type) return true;
  return (schema.anyOf ?? []).some((option) => acceptsType(option, type));
}

function arraySchema(schema: SchemaNode | undefined): SchemaNode | undefined {
  if (!schema) return undefined;
  if (schema.type === 'array') return schema;
  return (schema.anyOf ?? []).find((option) => option.type === 'array');
}

function coerceScalar(raw: string, schema: SchemaNode | undefined): unknown {
  if (acceptsType(schema, 'string')) return raw;
  if (acceptsType(schema, 'boolean')) {
    if (raw === '1' || raw === 'true') return true;
    if (raw === '0' || raw === 'false') return false;
    return raw;
  }
  if ((acceptsType(schema, 'integer') || acceptsType(schema, 'number')) && /^-?\d+(\.\d+)?$/.test(raw)) {
    return Number(raw);
  }
  return raw;
}

function coerceValues(name: string, values: string[], schema: SchemaNode | undefined): unknown {
  const array = arraySchema(schema);
  const scalarAllowed = schema !== array && schema !== undefined;
  if (array && !(scalarAllowed && values.length === 1)) {
    const items = COMMA_JOINED_PARAMETERS.has(name)
      ? values.flatMap((value) => value.split(',').map((item) => item.trim()))
      : values;
    return items.map((item) => coerceScalar(item, array.items));
  }
  // A repeated scalar parameter keeps its values, so validation reports the wrong type.
  return values.length === 1 ? coerceScalar(values[0]!, schema) : values;
}

/**
 * Decode an `application/x-www-form-urlencoded` body into the object its JSON twin would be, guided by
 * the endpoint's schema: repeated keys become arrays (`text=a&text=b`), comma-joined lists are split
 * (`glossary_ids`), booleans are `0/1/true/false`, integers are digits, and indexed keys build arrays of
 * objects (`dictionaries[0].source_lang=...`). Values that do not fit are passed on for validation to reject.
 */
export function decodeForm(body: string | URLSearchParams, schema: TSchema): Record<string, unknown> {
  const params = typeof body === 'string' ? new URLSearchParams(body) : body;
  const properties = (schema as SchemaNode).properties ?? {};
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) {
    const list = grouped.get(key);
    if (list) list.push(value);
    else grouped.set(key, [value]);
  }
  const result: Record<string, unknown> = {};
  for (const [key, values] of grouped) {
    const indexed = /^([A-Za-z_]+)\[(\d{1,4})\]\.([A-Za-z_]+)$/.exec(key);
    if (indexed) {
      const [, name, index, field] = indexed as unknown as [string, string, string, string];
      const itemSchema = arraySchema(properties[name])?.items;
      if (!Array.isArray(result[name])) result[name] = [];
      const list = result[name] as Record<string, unknown>[];
      const slot = list[Number(index)] ?? {};
      list[Number(index)] = slot;
      slot[field] = coerceValues(field, values, itemSchema?.properties?.[field]);
      continue;
    }
    result[key] = coerceValues(key, values, properties[key]);
  }
  for (const [key, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.includes(undefined))
      result[key] = value.filter((item) => item !== undefined);
  }
  return result;
}
