import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pseudoLocalize } from '@glossa/protocol';
import { describe, expect, test } from 'vitest';
import { extract, merge } from '../src/index.js';
import { renderedStructure } from './structure.js';

// Fixture folders: `input.md(x)`, `options.json` (extract options, plus `locale` for the pseudo
// translation, default en-XA); `segments.json` and `output.md(x)` are expected results, rewritten with UPDATE=1.
const root = join(import.meta.dirname, 'fixtures');
const update = process.env.UPDATE === '1';

function expectFile(path: string, actual: string): void {
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

for (const name of readdirSync(root).sort()) {
  const folder = join(root, name);
  const inputName = readdirSync(folder).find((file) => file.startsWith('input.'))!;
  const extension = inputName.slice('input'.length);
  const input = readFileSync(join(folder, inputName), 'utf8');
  const { locale = 'en-XA', ...options } = JSON.parse(readFileSync(join(folder, 'options.json'), 'utf8'));
  const mdx = extension === '.mdx';

  describe(`fixture ${name}`, () => {
    const extraction = extract(input, options);

    test('extracts the expected segments and codes', () => {
      const listed = extraction.segments.map((segment) => ({
        ...segment,
        codes: extraction.codes[segment.key],
      }));
      expectFile(
        join(folder, 'segments.json'),
        `${JSON.stringify({ segments: listed, messages: extraction.messages }, null, 2)}\n`,
      );
    });

    test('an identity translation gives the input back byte for byte', () => {
      const identity = new Map(extraction.segments.map((segment) => [segment.key, segment.source]));
      expect(merge(extraction, identity)).toBe(input);
      expect(merge(input, Object.fromEntries(identity), options)).toBe(input);
    });

    test(`the ${locale} pseudo translation keeps the rendered structure`, () => {
      const pseudo = new Map(
        extraction.segments.map((segment) => [segment.key, pseudoLocalize(segment.source, locale)]),
      );
      const output = merge(extraction, pseudo);
      expectFile(join(folder, `output${extension}`), output);
      expect(renderedStructure(output, mdx)).toEqual(renderedStructure(input, mdx));
      // Every segment reads back translated: extracting the output finds the pseudo text.
      const again = extract(output, options).segments.map((segment) => segment.source);
      expect(again).toEqual(extraction.segments.map((segment) => pseudo.get(segment.key)));
    });
  });
}
