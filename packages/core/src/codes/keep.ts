/**
 * Terms that are never translated (brand and product names, keyboard shortcuts), in every locale, pseudo
 * included: before a segment is sent, each whole-word occurrence in its text becomes a standalone code
 * (`<x id="glossa-keep-N"/>`), which every engine returns untouched; the answer gets the term back.
 */
import { escapeInlineText } from './inline.js';

const ID = /<x id="glossa-keep-(\d+)"\/>/g;

export interface KeptTerms {
  /** The segment's source with every kept term replaced by a code (the source itself when none occurs). */
  readonly text: string;
  /** The terms replaced, by code number (1-based): the inline text each code stands for. */
  readonly terms: readonly string[];
}

/** A matcher for `terms` (longest first, so "Glossa Cloud" wins over "Glossa"), or `undefined` for none. */
export function keptTermsMatcher(terms: readonly string[] | undefined): RegExp | undefined {
  const words = [...new Set((terms ?? []).map((t) => t.trim()).filter((t) => t !== ''))];
  if (words.length === 0) return undefined;
  const alternatives = words
    .map((t) => escapeInlineText(t))
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Whole words only: "K" is kept in "Press K", not in "Kiosk"; tags (`<…>`) are skipped as a whole.
  return new RegExp(`<[^>]*>|(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
}

/** `source` (inline XML) with each kept term outside tags replaced by a code. */
export function protectTerms(source: string, matcher: RegExp): KeptTerms {
  const terms: string[] = [];
  const text = source.replace(matcher, (match) => {
    if (match.startsWith('<')) return match;
    terms.push(match);
    return `<x id="glossa-keep-${terms.length}"/>`;
  });
  return { text, terms };
}

/** The answer with its terms back, or why not (a code the engine dropped or repeated). */
export function restoreTerms(
  target: string,
  terms: readonly string[],
): { target: string } | { error: string } {
  const seen = new Set<number>();
  let error: string | undefined;
  const restored = target.replace(ID, (_, n: string) => {
    const index = Number(n);
    const term = terms[index - 1];
    if (term === undefined || seen.has(index))
      error ??= `a kept term's code came back twice or unknown (${n})`;
    seen.add(index);
    return term ?? '';
  });
  if (error !== undefined) return { error };
  const lost = terms.findIndex((_, i) => !seen.has(i + 1));
  if (lost !== -1) return { error: `the kept term ${JSON.stringify(terms[lost])} was lost` };
  return { target: restored };
}
