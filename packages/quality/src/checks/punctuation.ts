import type { Check, Finding } from '../finding.js';

/** Sentence-final punctuation, by meaning; each language's own marks map to the same class. */
const FINAL_CLASSES: Readonly<Record<string, string>> = {
  '.': 'period',
  '。': 'period',
  '｡': 'period',
  '।': 'period',
  '!': 'exclamation',
  '！': 'exclamation',
  '?': 'question',
  '？': 'question',
  '؟': 'question',
  ';': 'semicolon',
  '；': 'semicolon',
  ':': 'colon',
  '：': 'colon',
  '…': 'ellipsis',
};

/** Closing quotes and brackets that may follow the final mark ("Go." vs « Allez. »). */
const CLOSER = /[\s"'»«”“’‘)\]）」』]/u;

/** The translation ends with the same kind of punctuation as the source (a period, a question mark...). */
export const checkPunctuation: Check = (input) => {
  const findings: Finding[] = [];
  if (input.translation.trim() === '') return findings;
  const source = finalMark(input.maskedSource, input.options.sourceLang);
  const target = finalMark(input.maskedTranslation, input.options.targetLang);
  if (source.kind === target.kind) return findings;
  const expected = source.kind ?? 'no final punctuation';
  const found = target.kind ?? 'none';
  const at = target.kind ? target.index : input.translation.trimEnd().length;
  findings.push({
    check: 'punctuation',
    severity: 'minor',
    message: `The source ends with ${expected}, the translation with ${found}.`,
    start: target.kind ? at : Math.max(0, at - 1),
    end: target.kind ? at + target.length : at,
  });
  return findings;
};

interface FinalMark {
  readonly kind: string | undefined;
  readonly index: number;
  readonly length: number;
}

function finalMark(text: string, language: string | undefined): FinalMark {
  // A backward scan (a `[…]+$` pattern tries every position: quadratic in long runs of spaces).
  let end = text.length;
  while (end > 0 && CLOSER.test(text[end - 1]!)) end--;
  const trimmed = text.slice(0, end);
  if (trimmed.endsWith('...')) return { kind: 'ellipsis', index: trimmed.length - 3, length: 3 };
  const last = trimmed.at(-1) ?? '';
  // In Greek ";" is the question mark.
  const kind = last === ';' && language?.toLowerCase().startsWith('el') ? 'question' : FINAL_CLASSES[last];
  return { kind, index: trimmed.length - 1, length: 1 };
}
