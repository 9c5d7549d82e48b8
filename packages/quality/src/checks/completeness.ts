import { type Check, type Finding, wholeSegment } from '../finding.js';

const LETTER = /\p{L}/u;

/** Empty translation of a non-empty source (critical); translation identical to a source with words (major). */
export const checkCompleteness: Check = (input) => {
  const findings: Finding[] = [];
  const source = input.source.trim();
  const translation = input.translation.trim();
  if (source !== '' && translation === '') {
    findings.push(
      wholeSegment(input, 'empty_target', 'critical', 'The translation is empty.', {
        source: { start: 0, end: input.source.length },
        absent: true,
      }),
    );
  } else if (
    LETTER.test(input.maskedSource) &&
    normalize(source) === normalize(translation) &&
    !sameLanguage(input.options.sourceLang, input.options.targetLang) &&
    countWords(input.maskedSource) >= 2
  ) {
    findings.push(
      wholeSegment(
        input,
        'untranslated',
        'major',
        'The translation is the same as the source (untranslated).',
        { source: { start: 0, end: input.source.length } },
      ),
    );
  }
  return findings;
};

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').toLowerCase();
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => LETTER.test(word)).length;
}

function sameLanguage(source: string | undefined, target: string | undefined): boolean {
  if (!source || !target) return false;
  return source.split('-')[0]!.toLowerCase() === target.split('-')[0]!.toLowerCase();
}
