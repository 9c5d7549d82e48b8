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

/** Set an own property, even one named `__proto__` (which then fails validation as an unknown parameter). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema of one property of an object schema, or of any key of a record (`patternProperties`). */
function propertySchema(schema: SchemaNode | undefined, name: string): SchemaNode | undefined {
  if (!schema) return undefined;
  if (schema.properties && Object.hasOwn(schema.properties, name)) return schema.properties[name];
  const patterns = (schema as { patternProperties?: Record<string, SchemaNode> }).patternProperties;
  return patterns ? Object.values(patterns)[0] : undefined;
}

const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const INDEXED_KEY = /^([A-Za-z_]+)\[(\d{1,4})\]\.([A-Za-z_]+)$/;
const DOTTED_KEY = /^[A-Za-z_]+(\.[A-Za-z0-9_-]+)+$/;

/**
 * Decode an `application/x-www-form-urlencoded` body (or a query string) into the object its JSON twin
 * would be, guided by the endpoint's schema: repeated keys become arrays (`text=a&text=b`), comma-joined
 * lists are split (`glossary_ids`), booleans are `0/1/true/false`, integers are digits, indexed keys build
 * arrays of objects (`dictionaries[0].source_lang=...`) and dotted keys build nested objects
 * (`configured_rules.punctuation.periods_in_academic_degrees=use`). Values that do not fit are passed on
 * for validation to reject; so are keys named `__proto__`, `constructor` or `prototype` (never merged).
 */
export function decodeForm(body: string | URLSearchParams, schema: TSchema): Record<string, unknown> {
  const params = typeof body === 'string' ? new URLSearchParams(body) : body;
  const root = schema as SchemaNode;
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) {
    const list = grouped.get(key);
    if (list) list.push(value);
    else grouped.set(key, [value]);
  }
  const result: Record<string, unknown> = {};
  for (const [key, values] of grouped) {
    const indexed = INDEXED_KEY.exec(key);
    const path = key.split('.');
    if (path.some((part) => UNSAFE_NAMES.has(part.replace(/\[\d+\]$/, '')))) {
      setOwn(result, key, values.length === 1 ? values[0] : values);
    } else if (indexed) {
      const [, name, index, field] = indexed as unknown as [string, string, string, string];
      const itemSchema = arraySchema(propertySchema(root, name))?.items;
      if (!Array.isArray(result[name])) setOwn(result, name, []);
      const list = result[name] as Record<string, unknown>[];
      const slot = list[Number(index)] ?? {};
      list[Number(index)] = slot;
      setOwn(slot, field, coerceValues(field, values, propertySchema(itemSchema, field)));
    } else if (DOTTED_KEY.test(key)) {
      let target = result;
      let node: SchemaNode | undefined = root;
      for (const part of path.slice(0, -1)) {
        node = propertySchema(node, part);
        if (!isPlainObject(target[part])) setOwn(target, part, {});
        target = target[part] as Record<string, unknown>;
      }
      const last = path[path.length - 1]!;
      setOwn(target, last, coerceValues(last, values, propertySchema(node, last)));
    } else {
      setOwn(result, key, coerceValues(key, values, propertySchema(root, key)));
    }
  }
  for (const [key, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.includes(undefined)) {
      setOwn(
        result,
        key,
        value.filter((item) => item !== undefined),
      );
    }
  }
  return result;
}
