/**
 * ICU messages inside XLIFF units (Angular writes `{VAR_PLURAL, plural, =0 {none} other {<x id="INTERPOLATION"/>
 * items}}`): the head (`{VAR_PLURAL, plural, `), each branch's selector (`=0 {` … `}`, a paired code around
 * the branch text) and the closing `}` become codes, so keywords and selectors are never translated, and
 * `icuShapeProblem` refuses a target whose engine moved a head, a closing brace or text between branches.
 */
import type { InlineToken } from '@glossa/core';
import type { XmlElement } from './xml.js';

/** A piece of ICU syntax found in text: a standalone code or one side of a branch. */
export interface IcuMark {
  readonly icu: 'x' | 'open' | 'close';
  readonly id: string;
  /** The syntax as written (decoded text). */
  readonly raw: string;
}

export type InlineItem = XmlElement | string | IcuMark;

const HEAD = /^\{\s*[\w.]+\s*,\s*(plural|select|selectordinal)\s*,(?:\s*offset\s*:\s*\d+)?/;
const SELECTOR = /^\s*(?:=\d+|[\w-]+)\s*\{/;
const TAIL = /^\s*\}/;
const ARGUMENT = /^\{[^{}]*\}/;

export const isIcuMark = (item: InlineItem): item is IcuMark => typeof item === 'object' && 'icu' in item;

/**
 * Items with the ICU syntax of their text turned into marks. Ids are `icu<n>` (head), `icu<n>.<k>` (branch
 * k), `icu<n>/end` (closing brace), `icu<n>#<k>` (an argument or `#` in a branch), avoiding `taken` ids.
 * Items without ICU syntax, or whose ICU does not close, come back as they were.
 */
export function markIcu(items: readonly (XmlElement | string)[], taken: ReadonlySet<string>): InlineItem[] {
  if (!items.some((item) => typeof item === 'string' && /\{\s*[\w.]+\s*,\s*(?:plural|select)/.test(item)))
    return [...items];
  const out: InlineItem[] = [];
  const stack: { id: string; plural: boolean; inBranch: boolean; branches: number; args: number }[] = [];
  let next = 1;
  const newId = () => {
    while (taken.has(`icu${next}`)) next++;
    return `icu${next++}`;
  };
  for (const item of items) {
    if (typeof item !== 'string') {
      const top = stack.at(-1);
      if (top && !top.inBranch) return [...items]; // an element between branches: not ICU as we know it
      out.push(item);
      continue;
    }
    let text = '';
    const flush = () => {
      if (text) out.push(text);
      text = '';
    };
    let at = 0;
    while (at < item.length) {
      const rest = item.slice(at);
      const top = stack.at(-1);
      if (top && !top.inBranch) {
        const selector = SELECTOR.exec(rest);
        const tail = selector ? null : TAIL.exec(rest);
        if (selector) {
          flush();
          out.push({ icu: 'open', id: `${top.id}.${top.branches++}`, raw: selector[0] });
          top.inBranch = true;
          at += selector[0].length;
        } else if (tail) {
          flush();
          out.push({ icu: 'x', id: `${top.id}/end`, raw: tail[0] });
          stack.pop();
          at += tail[0].length;
        } else if (/^\s+$/.test(rest)) {
          text += rest;
          at = item.length;
        } else return [...items];
        continue;
      }
      const c = item[at]!;
      const head = c === '{' ? HEAD.exec(rest) : null;
      if (head) {
        flush();
        const id = newId();
        out.push({ icu: 'x', id, raw: head[0] });
        stack.push({ id, plural: head[1] !== 'select', inBranch: false, branches: 0, args: 0 });
        at += head[0].length;
      } else if (top && c === '}') {
        flush();
        out.push({ icu: 'close', id: `${top.id}.${top.branches - 1}`, raw: '}' });
        top.inBranch = false;
        at++;
      } else if (top && (c === '{' || (c === '#' && top.plural))) {
        const argument = c === '#' ? '#' : ARGUMENT.exec(rest)?.[0];
        if (argument === undefined) return [...items];
        flush();
        out.push({ icu: 'x', id: `${top.id}#${top.args++}`, raw: argument });
        at += argument.length;
      } else {
        text += c;
        at++;
      }
    }
    flush();
  }
  return stack.length > 0 ? [...items] : out;
}

/**
 * Why a target breaks the ICU shape of its source, or `undefined`: each head must come before its closing
 * brace, at the same level, with only branches and white space between them.
 */
export function icuShapeProblem(tokens: readonly InlineToken[]): string | undefined {
  const heads = new Map<string, number>();
  let depth = 0;
  const depthAt: number[] = [];
  tokens.forEach((t, i) => {
    if (t.type === 'close') depth--;
    depthAt[i] = depth;
    if (t.type === 'open') depth++;
    if (t.type === 'x' && /^icu\d+$/.test(t.id)) heads.set(t.id, i);
  });
  for (const [id, start] of heads) {
    const end = tokens.findIndex((t) => t.type === 'x' && t.id === `${id}/end`);
    if (end < start) return `ICU message ${id}: its closing brace moved before its head`;
    for (let i = start + 1; i < end; i++) {
      if (depthAt[i] !== depthAt[start]) continue;
      const t = tokens[i]!;
      if (t.type === 'text' && t.text.trim() !== '')
        return `ICU message ${id}: text moved out of its branches`;
      if ((t.type === 'open' || t.type === 'close') && !t.id.startsWith(`${id}.`))
        return `ICU message ${id}: markup moved between its branches`;
      if (t.type === 'x') return `ICU message ${id}: a code moved out of its branches`;
    }
  }
  return undefined;
}

/** Top-level text tokens outside every ICU message (between a head and its closing brace is inside). */
function outsideIcu(tokens: readonly InlineToken[]): number[] {
  const outside: number[] = [];
  let depth = 0;
  let inIcu: string | undefined;
  tokens.forEach((t, i) => {
    if (t.type === 'close') depth--;
    if (depth === 0 && t.type === 'x' && inIcu === undefined && /^icu\d+$/.test(t.id)) inIcu = t.id;
    else if (depth === 0 && t.type === 'x' && t.id === `${inIcu}/end`) inIcu = undefined;
    else if (depth === 0 && inIcu === undefined && t.type === 'text') outside.push(i);
    if (t.type === 'open') depth++;
  });
  return outside;
}

/**
 * A unit that is one ICU message and nothing else (Angular's ICU units) must come back as one: punctuation
 * an engine put around it (a pseudo-locale's brackets) is dropped; words moved out of it are refused.
 */
export function fitIcuTarget(
  source: readonly InlineToken[],
  target: readonly InlineToken[],
): { tokens: InlineToken[] } | { error: string } {
  const sourceOutside = outsideIcu(source).some((i) => (source[i] as { text: string }).text.trim() !== '');
  if (sourceOutside) return { tokens: [...target] };
  const drop = new Set(outsideIcu(target));
  for (const i of drop) {
    const text = (target[i] as { text: string }).text;
    if (!/^[\s\p{P}]*$/u.test(text)) return { error: 'ICU message: words moved out of its branches' };
  }
  return {
    tokens: target.filter((_, i) => !drop.has(i) || (target[i] as { text: string }).text.trim() === ''),
  };
}
