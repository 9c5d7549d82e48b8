/**
 * The case of a translation follows its source: a target's first letter takes the case of the source's
 * first letter, and the word after a code (a placeholder, a tag) is not capitalised where the source's
 * is lower-case (engines take a code for a sentence break: `{{count}} more` → `{{count}} Más`).
 * Lowering is skipped for languages that capitalise nouns (German, Luxembourgish).
 */
import { type InlineToken, parseInline, serializeInline } from './inline.js';

const NOUN_CAPITALS = new Set(['de', 'lb', 'gsw']);
const LETTER = /\p{L}/u;

/** Where the first letter of the text after token `index` is: token index and offset, or undefined. */
function letterAfter(
  tokens: readonly InlineToken[],
  index: number,
): { token: number; at: number } | undefined {
  const next = tokens[index + 1];
  if (next?.type !== 'text') return undefined;
  const m = /^[\s"'“‘«(¡¿+-]*(\p{L})/u.exec(next.text);
  return m ? { token: index + 1, at: m[0].length - 1 } : undefined;
}

function firstLetter(tokens: readonly InlineToken[]): { token: number; at: number } | undefined {
  for (const [i, t] of tokens.entries()) {
    if (t.type !== 'text') continue;
    const at = t.text.search(LETTER);
    if (at >= 0) return { token: i, at };
  }
  return undefined;
}

const codeId = (t: InlineToken) => (t.type === 'text' ? undefined : `${t.type}#${t.id}`);
const isLower = (c: string) => c !== c.toUpperCase() && c === c.toLowerCase();
const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();

/** The target with its case following the source's (see the module comment); unchanged when it already does. */
export function followCase(source: string, target: string, locale = ''): string {
  let from: InlineToken[];
  let to: InlineToken[];
  try {
    from = parseInline(source);
    to = parseInline(target);
  } catch {
    return target;
  }
  const lowering = !NOUN_CAPITALS.has(locale.toLowerCase().split(/[-_]/)[0]!);
  const texts = to.map((t) => (t.type === 'text' ? t.text : ''));
  let changed = false;
  const setCase = (where: { token: number; at: number }, lower: boolean) => {
    const text = texts[where.token]!;
    const c = text[where.at]!;
    if (lower) {
      if (!lowering || !isUpper(c)) return;
      // A word in capitals (an acronym) stays as it is; a capital letter alone ("Y", "À") does not.
      const word = /^\p{L}+/u.exec(text.slice(where.at))![0];
      if (word.length > 1 && word === word.toUpperCase()) return;
      texts[where.token] = text.slice(0, where.at) + c.toLowerCase() + text.slice(where.at + 1);
    } else {
      // A letter whose capital is two letters (ß → SS) stays as it is.
      if (!isLower(c) || c.toUpperCase().length !== 1) return;
      texts[where.token] = text.slice(0, where.at) + c.toUpperCase() + text.slice(where.at + 1);
    }
    changed = true;
  };
  const sourceFirst = firstLetter(from);
  const targetFirst = firstLetter(to);
  if (sourceFirst && targetFirst) {
    const c = (from[sourceFirst.token] as { text: string }).text[sourceFirst.at]!;
    if (isLower(c)) setCase(targetFirst, true);
    else if (isUpper(c)) setCase(targetFirst, false);
  }
  // After each code: lower where the source's word after the same code is lower-case.
  const lowerAfter = new Set<string>();
  from.forEach((t, i) => {
    const id = codeId(t);
    const where = letterAfter(from, i);
    if (id === undefined || !where) return;
    const c = (from[where.token] as { text: string }).text[where.at]!;
    if (isLower(c)) lowerAfter.add(t.type === 'close' ? `${id}/${i}` : id);
  });
  const closes = new Map<string, number>();
  to.forEach((t, i) => {
    let id = codeId(t);
    if (id === undefined) return;
    if (t.type === 'close') {
      // Close tokens carry their pair's id: match the n-th close of a pair in both.
      id = `${id}/${sourceCloseIndex(from, t.id, closes)}`;
    }
    const where = letterAfter(to, i);
    if (where && lowerAfter.has(id) && where !== undefined) setCase(where, true);
  });
  if (!changed) return target;
  return serializeInline(to.map((t, i) => (t.type === 'text' ? { type: 'text', text: texts[i]! } : t)));
}

/** The index in `source` of the close token of pair `id` (pairs close once). */
function sourceCloseIndex(source: readonly InlineToken[], id: string, memo: Map<string, number>): number {
  let at = memo.get(id);
  if (at === undefined) {
    at = source.findIndex((t) => t.type === 'close' && t.id === id);
    memo.set(id, at);
  }
  return at;
}
