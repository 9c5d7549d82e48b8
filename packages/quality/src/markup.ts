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

/**
 * `<`, an optional `/`, a name (read atomically: the lookahead's capture, then a back-reference), and the
 * rest up to the first `>`; `tagAt` then accepts the rest only when it is empty, `/`, or starts with
 * whitespace (attributes). The same tags as `<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^<>]*?)?)\s*(\/?)>`, whose
 * overlapping whitespace made `<a` and 2,000 spaces take minutes, in time linear in the text.
 */
const TAG = /<(\/?)([A-Za-z](?=([\w:.-]*))\3)([^<>]*)>/g;
const ID_ATTRIBUTE = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/**
 * Placeholders: `{{name}}`, `${name}`, `{name}` / `{0}` / `{count, number}` (ICU simple arguments),
 * printf `%s`, `%1$d`, `%.2f`, Python `%(name)s`. With the space flag (`% d`) only when no letter and no
 * apostrophe follows: in "50 % de", "15 % superiores" or "{{n}}% d'articles" (a space before or after the percent
 * sign, as French and Spanish write it) `% d` is text.
 * Flags and widths are read atomically (a lookahead's capture, then a back-reference): `%` and 50,000 zeros
 * took 7 s when the flags could give their zeros back to the width one at a time.
 */
const PLACEHOLDER =
  /\{\{[^{}]+\}\}|\$\{[^{}]+\}|\{[\p{L}\p{N}_]+(?:\s*,[^{}]*)?\}|%\([A-Za-z_]\w*\)[sdifr]|%(?:(?=(\d+))\1\$)?(?=([-+0#]*))\2\d*(?:\.\d+)?[sdifuxXeEgGc@]|%(?:(?=(\d+))\3\$)?(?=([-+0#]*))\4 (?=([-+ 0#]*))\5\d*(?:\.\d+)?[sdifuxXeEgGc@](?![\p{L}\p{N}'’])/gu;

/** The tags in `text`, in order. A tag's key is its kind and name, plus its `id` when it has one. */
export function findTags(text: string): MarkupToken[] {
  const tokens: MarkupToken[] = [];
  TAG.lastIndex = 0;
  for (let match = TAG.exec(text); match; match = TAG.exec(text)) {
    const [whole, closing, name, , rest = ''] = match;
    if (rest !== '' && rest !== '/' && !/^\s/.test(rest)) {
      // Not a tag here (`<ab/c>`): look again from the next character, as the pattern would.
      TAG.lastIndex = match.index + 1;
      continue;
    }
    const selfClosing = rest.endsWith('/');
    const id = ID_ATTRIBUTE.exec(rest);
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
  if (tokens.length === 0) return text;
  // One pass over the tokens (in order, not overlapping): linear in the text, whatever their number.
  const pieces: string[] = [];
  let cursor = 0;
  for (const token of tokens) {
    pieces.push(text.slice(cursor, token.start), ' '.repeat(token.end - token.start));
    cursor = token.end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
}
