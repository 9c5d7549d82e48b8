import { lowerCase } from '../case.js';
import type { Check, Finding } from '../finding.js';

/** A sentence: text up to a final mark (`.`, `!`, `?`, `。`, `！`, `？`, `…`) and the space after it, or the end. */
const SENTENCE = /[^.!?。！？…]+(?:[.!?。！？…]+|$)/gu;

/** A sentence's words, lower-cased in its language: what makes two sentences the same. */
function key(sentence: string, lang: string | undefined): string {
  return (lowerCase(sentence, lang).match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).join(' ');
}

function sentences(text: string, lang: string | undefined): { key: string; start: number; end: number }[] {
  const found: { key: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(SENTENCE)) {
    const leading = match[0].length - match[0].trimStart().length;
    const body = match[0].trim();
    if (body === '') continue;
    found.push({
      key: key(body, lang),
      start: match.index + leading,
      end: match.index + leading + body.length,
    });
  }
  return found;
}

/**
 * A sentence the translation says twice (an engine that repeats itself), unless the source repeats one too.
 * Sentences of fewer than three words ("Yes. Yes.") are not counted. Reported at the second occurrence.
 */
export const checkDuplicatedSentences: Check = (input) => {
  const long = (sentence: { key: string }) => sentence.key.split(' ').length >= 3;
  const sourceKeys = sentences(input.maskedSource, input.options.sourceLang)
    .filter(long)
    .map((sentence) => sentence.key);
  if (new Set(sourceKeys).size < sourceKeys.length) return [];
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const sentence of sentences(input.maskedTranslation, input.options.targetLang).filter(long)) {
    if (seen.has(sentence.key)) {
      findings.push({
        check: 'duplicated_sentence',
        severity: 'major',
        message: 'This sentence is a repetition of an earlier one; the source says it once.',
        start: sentence.start,
        end: sentence.end,
      });
    }
    seen.add(sentence.key);
  }
  return findings;
};
