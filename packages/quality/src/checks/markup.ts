import type { Check, CheckInput, Finding } from '../finding.js';
import { findPlaceholders, findTags, type MarkupToken } from '../markup.js';

/** Tags and placeholders of the source must all be in the translation, no more, and tags in the same order. */
export const checkMarkup: Check = (input) => [
  ...compare(input, findTags(input.source), findTags(input.translation), 'tag'),
  ...compare(input, findPlaceholders(input.source), findPlaceholders(input.translation), 'placeholder'),
];

function compare(
  input: CheckInput,
  source: readonly MarkupToken[],
  target: readonly MarkupToken[],
  kind: 'tag' | 'placeholder',
): Finding[] {
  const findings: Finding[] = [];
  // The source's occurrences of each tag or placeholder, matched first to last; those left over are missing.
  const unmatched = new Map<string, { tokens: MarkupToken[]; used: number }>();
  for (const token of source) {
    const known = unmatched.get(token.key);
    if (known) known.tokens.push(token);
    else unmatched.set(token.key, { tokens: [token], used: 0 });
  }
  for (const token of target) {
    const left = unmatched.get(token.key);
    if (left && left.used < left.tokens.length) {
      left.used++;
      continue;
    }
    findings.push({
      check: kind === 'tag' ? 'extra_tag' : 'extra_placeholder',
      severity: kind === 'tag' ? 'major' : 'critical',
      message: `The ${kind} ${token.text} is not in the source.`,
      start: token.start,
      end: token.end,
    });
  }
  for (const left of unmatched.values()) {
    for (const original of left.tokens.slice(left.used)) {
      findings.push({
        check: kind === 'tag' ? 'missing_tag' : 'missing_placeholder',
        severity: kind === 'tag' ? 'major' : 'critical',
        message: `The ${kind} ${original.text} of the source is missing.`,
        start: 0,
        end: input.translation.length,
        source: { start: original.start, end: original.end },
        absent: true,
      });
    }
  }
  if (kind === 'tag' && findings.length === 0) {
    const sourceOrder = source.map((token) => token.key).join('');
    const targetOrder = target.map((token) => token.key).join('');
    if (sourceOrder !== targetOrder) {
      const first = target.findIndex((token, index) => token.key !== source[index]?.key);
      const token = target[first]!;
      findings.push({
        check: 'reordered_tags',
        severity: 'minor',
        message: `The tags are in another order than in the source (from ${token.text}).`,
        start: token.start,
        end: token.end,
      });
    }
  }
  return findings;
}
