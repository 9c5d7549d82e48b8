/**
 * Issue 31: the checks are linear in a segment's length. The rewritten scanners (links, tags, placeholders,
 * trailing whitespace) find exactly what the patterns they replaced found, on random texts; and inputs that
 * made those patterns quadratic or worse (a 100 KB word, `<a` and spaces, `%` and zeros, thousands of
 * e-mail addresses) are evaluated in seconds at most, not minutes (limits loose for a loaded CI machine).
 */
import { describe, expect, it } from 'vitest';
import { findLinks, maskLinks } from '../src/checks/links.js';
import { trailingWhitespace } from '../src/checks/whitespace.js';
import { evaluateSegmentsDetailed } from '../src/index.js';
import { findPlaceholders, findTags } from '../src/markup.js';

const OLD_LINK =
  /\b(?:https?:\/\/|www\.)[^\s<>"'«»“”]+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;
const OLD_TRAILING = /[.,:;!?)\]}'"’»”]+$/u;
const OLD_TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^<>]*?)?)\s*(\/?)>/g;
const OLD_PLACEHOLDER =
  /\{\{\s*[^{}]+?\s*\}\}|\$\{[^{}]+\}|\{[\p{L}\p{N}_]+(?:\s*,[^{}]*)?\}|%\([A-Za-z_]\w*\)[sdifr]|%(?:\d+\$)?[-+0#]*\d*(?:\.\d+)?[sdifuxXeEgGc@]|%(?:\d+\$)?[-+0#]* [-+ 0#]*\d*(?:\.\d+)?[sdifuxXeEgGc@](?![\p{L}\p{N}])/gu;

let seed = 5;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const PIECES = [
  'a',
  'b',
  ' ',
  '.',
  '@',
  'x@y.zz',
  'www.',
  'http://',
  'https://e.x/p',
  '/',
  ')',
  '"',
  '😀',
  'é',
  '-',
  '_',
  '<',
  '>',
  '<b>',
  '</b>',
  '<br/>',
  '<a href="x" id="3">',
  '/>',
  '{',
  '}',
  '{{',
  '}}',
  '%',
  '0',
  '5',
  's',
  'd',
  '$',
  '1$',
];
const text = () =>
  Array.from({ length: Math.floor(random() * 30) }, () => PIECES[Math.floor(random() * PIECES.length)]).join(
    '',
  );

describe('the linear scanners find what the patterns they replaced found', () => {
  it('links, tags, placeholders and trailing whitespace on 5,000 random texts', () => {
    for (let round = 0; round < 5000; round++) {
      const sample = text();
      const links = [...sample.matchAll(OLD_LINK)].map((match) => {
        const value = match[0].replace(OLD_TRAILING, '');
        return { value, start: match.index, end: match.index + value.length };
      });
      expect(findLinks(sample), sample).toEqual(links);
      expect(maskLinks(sample), sample).toBe(sample.replace(OLD_LINK, (link) => ' '.repeat(link.length)));
      const tags = [...sample.matchAll(OLD_TAG)].map((match) => [match.index, match[0]]);
      expect(
        findTags(sample).map((tag) => [tag.start, tag.text]),
        sample,
      ).toEqual(tags);
      const placeholders = [...sample.matchAll(OLD_PLACEHOLDER)].map((match) => [match.index, match[0]]);
      const noTags = sample.includes('<') ? undefined : findPlaceholders(sample);
      if (noTags)
        expect(
          noTags.map((token) => [token.start, token.text]),
          sample,
        ).toEqual(placeholders);
      expect(trailingWhitespace(sample)).toBe(/\s*$/.exec(sample)![0]);
    }
  });
});

describe('inputs that were quadratic', () => {
  const cases: Record<string, [string, string]> = {
    'a 100 KB word': ['a', 'b'.repeat(100_000)],
    '`<a` and 100,000 spaces': ['a', `<a${' '.repeat(100_000)}`],
    '`%` and 100,000 zeros': ['a', `%${'0'.repeat(100_000)}`],
    '14,000 e-mail addresses, changed': ['x@y.zz '.repeat(14_000), 'x@y.ww '.repeat(14_000)],
    'English text of 100 KB with a spelling issue per word': ['a', 'The quick brown fox. '.repeat(5_000)],
  };
  for (const [name, [source, translation]] of Object.entries(cases)) {
    it(`${name}: under 5 s`, () => {
      const started = performance.now();
      const [issues] = evaluateSegmentsDetailed([{ source, translation }], {
        sourceLang: 'en',
        targetLang: 'de',
        spelling: (word) => word.length % 2 === 0,
      });
      expect(issues).toBeDefined();
      expect(performance.now() - started).toBeLessThan(5000);
    });
  }
});
