/** `targetLang` → `target_lang`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Copy the listed camelCase options into a wire object with snake_case names. Options that are not
 * listed (including unknown extra keys) and `undefined` values are left out.
 */
export function toWire<K extends string>(
  options: object,
  names: readonly K[],
  rename: Partial<Record<K, string>> = {},
): Record<string, unknown> {
  const source = options as Record<string, unknown>;
  const wire: Record<string, unknown> = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) wire[rename[name] ?? snakeCase(name)] = value;
  }
  return wire;
}

/** Throw a `TypeError` unless `value` is a non-empty string. */
export function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`Expected \`${name}\` to be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A path segment from an id, encoded; throws on an empty id. */
export function idSegment(name: string, id: unknown): string {
  return encodeURIComponent(requireString(name, id));
}

/** Normalize `string | string[]` to a non-empty array of strings. */
export function textList(name: string, texts: unknown): string[] {
  const list = typeof texts === 'string' ? [texts] : texts;
  if (!Array.isArray(list) || list.length === 0 || list.some((text) => typeof text !== 'string')) {
    throw new TypeError(`Expected \`${name}\` to be a string or a non-empty array of strings`);
  }
  return list as string[];
}
