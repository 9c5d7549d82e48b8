import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pseudoLocalize } from '@glossa/protocol';
import type { Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { describe, expect, test } from 'vitest';
import { extract, merge } from '../src/index.js';

// Fixture folders: `input.html`, `options.json` (extract options, `lang` for merge, `locale` for the pseudo
// translation, default en-XA); `segments.json` and `output.html` are expected results, rewritten with UPDATE=1.
const root = join(import.meta.dirname, 'fixtures');
const update = process.env.UPDATE === '1';
const MASKED = new Set([
  'alt',
  'title',
  'placeholder',
  'ariaLabel',
  'ariaDescription',
  'aria-description',
  'label',
  'content',
  'value',
]);

function expectFile(path: string, actual: string): void {
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** The DOM without positions and text nodes, translatable attributes masked; script, style, code keep text. */
function structure(node: unknown, verbatim = false): unknown {
  if (Array.isArray(node))
    return node.filter((item) => verbatim || item?.type !== 'text').map((item) => structure(item, verbatim));
  if (typeof node !== 'object' || node === null) return node;
  const { type, tagName } = node as { type: string; tagName?: string };
  const inner =
    verbatim ||
    ['script', 'style', 'code', 'pre', 'kbd', 'samp', 'var', 'textarea'].includes(tagName ?? '') ||
    type === 'comment';
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node)) {
    if (name === 'position' || name === 'data') continue;
    if (name === 'properties')
      out[name] = Object.fromEntries(
        Object.entries(value as object)
          .filter(([key]) => key !== 'lang' && key !== 'dir')
          .map(([key, v]) => [key, MASKED.has(key) ? '…' : v]),
      );
    else out[name] = structure(value, inner);
  }
  return out;
}

const dom = (html: string) => structure(unified().use(rehypeParse).parse(html) as Root);

for (const name of readdirSync(root).sort()) {
  const folder = join(root, name);
  const input = readFileSync(join(folder, 'input.html'), 'utf8');
  const {
    locale = 'en-XA',
    lang,
    ...options
  } = JSON.parse(readFileSync(join(folder, 'options.json'), 'utf8'));

  describe(`fixture ${name}`, () => {
    const extraction = extract(input, options);

    test('extracts the expected segments and codes', () => {
      const listed = extraction.segments.map((segment) => ({
        ...segment,
        codes: extraction.codes[segment.key],
      }));
      expectFile(join(folder, 'segments.json'), `${JSON.stringify(listed, null, 2)}\n`);
    });

    test('an identity translation gives the input back byte for byte', () => {
      const identity = new Map(extraction.segments.map((segment) => [segment.key, segment.source]));
      expect(merge(extraction, identity)).toBe(input);
      expect(merge(input, Object.fromEntries(identity), options)).toBe(input);
    });

    test(`the ${locale} pseudo translation keeps the DOM apart from text`, () => {
      const pseudo = new Map(
        extraction.segments.map((segment) => [segment.key, pseudoLocalize(segment.source, locale)]),
      );
      const output = merge(extraction, pseudo, lang ? { lang } : {});
      expectFile(join(folder, 'output.html'), output);
      expect(dom(output)).toEqual(dom(input));
      const again = extract(output, options).segments.map((segment) => segment.source);
      expect(again).toEqual(extraction.segments.map((segment) => pseudo.get(segment.key)));
    });
  });
}
