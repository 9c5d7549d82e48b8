/** Checks a run makes on segments and targets without calling the service. */
import { baseLanguage, isPseudoLocale } from '@glossa/protocol';
import { inlinePlainText, parseInline } from './codes/inline.js';
import type { RunSegment } from './segment.js';

/** Sources that are not valid inline XML, and keys used twice, with the reason. */
export function checkSources(segments: readonly RunSegment[]): Map<RunSegment, string> {
  const invalid = new Map<RunSegment, string>();
  const keys = new Set<string>();
  for (const segment of segments) {
    if (keys.has(segment.key)) invalid.set(segment, `Segment key '${segment.key}' is used twice`);
    keys.add(segment.key);
    try {
      parseInline(segment.source);
    } catch (error) {
      invalid.set(segment, `Invalid segment source: ${(error as Error).message}`);
    }
  }
  return invalid;
}

/** A message when the target is longer than the segment's `maxLength` (code points, codes excluded). */
export function overLength(segment: RunSegment, target: string): string | undefined {
  if (segment.maxLength === undefined) return undefined;
  const length = [...inlinePlainText(target)].length;
  return length > segment.maxLength
    ? `max_length: the target has ${length} characters, the limit is ${segment.maxLength}`
    : undefined;
}

/**
 * Why a target that came back as its source is untranslated, or `undefined` when the same text can be
 * right: a target in the source's own language (en → en-GB), a pseudo-locale, or text that is not a
 * phrase (see below). Values that are not prose (URLs, code) never get here: the adapters do not send them.
 */
export function echoedSource(
  source: string,
  target: string,
  sourceLang: string | undefined,
  locale: string,
): string | undefined {
  if (sourceLang === undefined || isPseudoLocale(locale)) return undefined;
  if (baseLanguage(sourceLang).toLowerCase() === baseLanguage(locale).toLowerCase()) return undefined;
  const text = inlinePlainText(source).trim();
  if (inlinePlainText(target).trim() !== text) return undefined;
  // Prose: two words or more, one of them an ordinary lower-case word. A single word ("navbar", "Admin")
  // and Title Case ("Base URL", "Frontmatter Config") are as often names and identifiers, kept on purpose.
  const words = text.match(/\p{L}+/gu) ?? [];
  if (words.length < 2 || !words.some((w) => /^\p{Ll}{2,}$/u.test(w))) return undefined;
  return `came back unchanged, in the source language (${sourceLang}): no engine translated it`;
}

/** Whether a source has a letter or digit outside its codes (checked without building the plain text). */
export function hasWords(source: string): boolean {
  const words = /<[^>]*>|&[^;]*;|[\p{L}\p{N}]/gu;
  for (let m = words.exec(source); m; m = words.exec(source))
    if (m[0][0] !== '<' && m[0][0] !== '&') return true;
  return false;
}
