/**
 * Inline markup the checks must keep intact: XML/HTML tags (including the XLIFF-style `<g id>` and `<x id/>`
 * codes) and placeholders of the common message formats.
 */

export interface MarkupToken {
  /** What identifies the token when source and translation are compared (`<b>`, `</b>`, `{{count}}`). */
  readonly key: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^<>]*?)?)\s*(\/?)>/g;
const ID_ATTRIBUTE = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/**
 * Placeholders: `{{name}}`, `${name}`, `{name}` / `{0}` / `{count, number}` (ICU simple arguments),
 * printf `%s`, `%1$d`, `%.2f`, Python `%(name)s`. With the space flag (`% d`) only when no letter follows: in
 * "50 % de" or "15 % superiores" (a space before the percent sign, as French and Spanish write it) `% d` is text.
 */
const PLACEHOLDER =
  /\{\{\s*[^{}]+?\s*\}\}|\$\{[^{}]+\}|\{[\p{L}\p{N}_]+(?:\s*,[^{}]*)?\}|%\([A-Za-z_]\w*\)[sdifr]|%(?:\d+\$)?[-+0#]*\d*(?:\.\d+)?[sdifuxXeEgGc@]|%(?:\d+\$)?[-+0#]* [-+ 0#]*\d*(?:\.\d+)?[sdifuxXeEgGc@](?![\p{L}\p{N}])/gu;

/** The tags in `text`, in order. A tag's key is its kind and name, plus its `id` when it has one. */
export function findTags(text: string): MarkupToken[] {
  const tokens: MarkupToken[] = [];
  for (const match of text.matchAll(TAG)) {
    const [whole, closing, name, attributes, selfClosing] = match;
    const id = ID_ATTRIBUTE.exec(attributes ?? '');
    const idPart = id ? ` id="${id[1] ?? id[2]}"` : '';
    const key = `<${closing}${name!.toLowerCase()}${idPart}${selfClosing ? '/' : ''}>`;
    tokens.push({ key, text: whole, start: match.index, end: match.index + whole.length });
  }
  return tokens;
}

/** The placeholders in `text` outside tags, in order. Whitespace inside `{{ }}` does not count. */
export function findPlaceholders(text: string): MarkupToken[] {
  const masked = blank(text, findTags(text));
  const tokens: MarkupToken[] = [];
  for (const match of masked.matchAll(PLACEHOLDER)) {
    const whole = match[0];
    const key = whole.replace(/\s+/g, '');
    tokens.push({ key, text: whole, start: match.index, end: match.index + whole.length });
  }
  return tokens;
}

/** `text` with every tag and placeholder replaced by spaces, so offsets stay the same. */
export function maskMarkup(text: string): string {
  const withoutTags = blank(text, findTags(text));
  return blank(withoutTags, findPlaceholders(withoutTags));
}

function blank(text: string, tokens: readonly MarkupToken[]): string {
  let result = text;
  for (const token of tokens) {
    result = result.slice(0, token.start) + ' '.repeat(token.end - token.start) + result.slice(token.end);
  }
  return result;
}
