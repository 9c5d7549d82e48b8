import type { Check, Finding } from '../finding.js';
import { codePointLength } from '../spans.js';

/** Sources shorter than this are not length-checked: "OK" → "Aceptar" is fine. */
export const MIN_LENGTH_CHECKED = 20;

const COMPACT_SCRIPTS = ['zh', 'ja', 'ko'];

/**
 * The allowed translation/source ratio in code points when the caller sets none: 0.35–2.5 between
 * alphabetic languages; into Chinese, Japanese or Korean from 0.1, and out of them up to 6.
 */
export function defaultLengthRatio(sourceLang?: string, targetLang?: string): { min: number; max: number } {
  const compactSource = COMPACT_SCRIPTS.includes(root(sourceLang));
  const compactTarget = COMPACT_SCRIPTS.includes(root(targetLang));
  if (compactSource === compactTarget) return { min: 0.35, max: 2.5 };
  return compactTarget ? { min: 0.1, max: 1.5 } : { min: 0.7, max: 6 };
}

/** The translation is neither much shorter nor much longer than the source. */
export const checkLength: Check = (input) => {
  const findings: Finding[] = [];
  const sourceLength = codePointLength(input.source.trim());
  const targetLength = codePointLength(input.translation.trim());
  if (sourceLength < MIN_LENGTH_CHECKED || targetLength === 0) return findings;
  const { min, max } =
    input.options.lengthRatio ?? defaultLengthRatio(input.options.sourceLang, input.options.targetLang);
  const ratio = targetLength / sourceLength;
  if (ratio >= min && ratio <= max) return findings;
  findings.push({
    check: 'length_ratio',
    severity: 'minor',
    message: `The translation is ${ratio < min ? 'much shorter' : 'much longer'} than the source (length ratio ${ratio.toFixed(2)}, expected ${min}–${max}).`,
    start: 0,
    end: input.translation.length,
    source: { start: 0, end: input.source.length },
    kind: ratio < min ? { type: 'Accuracy', subType: 'Omission' } : { type: 'Accuracy', subType: 'Addition' },
  });
  return findings;
};

function root(language: string | undefined): string {
  return (language ?? '').split('-')[0]!.toLowerCase();
}
