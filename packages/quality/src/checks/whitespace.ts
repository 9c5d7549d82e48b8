import type { Check, Finding } from '../finding.js';

/** The translation starts and ends with the same whitespace as the source. */
export const checkWhitespace: Check = (input) => {
  const findings: Finding[] = [];
  const sourceLead = /^\s*/.exec(input.source)![0];
  const targetLead = /^\s*/.exec(input.translation)![0];
  if (sourceLead !== targetLead && input.translation.trim() !== '') {
    findings.push({
      check: 'leading_whitespace',
      severity: 'minor',
      message: `Leading whitespace differs from the source (${describe(sourceLead)} expected, ${describe(targetLead)} found).`,
      start: 0,
      end: targetLead.length,
    });
  }
  const sourceTrail = trailingWhitespace(input.source);
  const targetTrail = trailingWhitespace(input.translation);
  if (sourceTrail !== targetTrail && input.translation.trim() !== '') {
    findings.push({
      check: 'trailing_whitespace',
      severity: 'minor',
      message: `Trailing whitespace differs from the source (${describe(sourceTrail)} expected, ${describe(targetTrail)} found).`,
      start: input.translation.length - targetTrail.length,
      end: input.translation.length,
    });
  }
  return findings;
};

function describe(whitespace: string): string {
  if (whitespace === '') return 'none';
  return JSON.stringify(whitespace);
}

/** The whitespace `text` ends with (a backward scan: `/\s*$/` tries every position, quadratic in long runs). */
export function trailingWhitespace(text: string): string {
  let start = text.length;
  while (start > 0 && /\s/.test(text[start - 1]!)) start--;
  return text.slice(start);
}
