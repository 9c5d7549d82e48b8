import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pseudoLocalize } from '@glossa/protocol';
import { describe, expect, test } from 'vitest';
import { parseXliff, translateXliff } from '../src/index.js';

// Fixture folders: `input.xlf`, `options.json` (translateXliff options); `units.json` (what parseXliff reads)
// and `output.xlf` (input translated in place with the pseudo translation) are rewritten with UPDATE=1.
const root = join(import.meta.dirname, 'fixtures');
const update = process.env.UPDATE === '1';

function expectFile(path: string, actual: string): void {
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const pseudo = async (segments: readonly { source: string }[]) =>
  segments.map((s) => pseudoLocalize(s.source, 'en-XA'));

for (const name of readdirSync(root).sort()) {
  const folder = join(root, name);
  const input = readFileSync(join(folder, 'input.xlf'), 'utf8');
  const options = JSON.parse(readFileSync(join(folder, 'options.json'), 'utf8'));

  describe(`fixture ${name}`, () => {
    test('reads the expected units', () => {
      expectFile(join(folder, 'units.json'), `${JSON.stringify(parseXliff(input), null, 2)}\n`);
    });

    test('translating in place fills only the missing targets and keeps every other byte', async () => {
      const result = await translateXliff(input, { ...options, translate: pseudo });
      expectFile(join(folder, 'output.xlf'), result.xliff);
      expect(result.kept).toEqual([]);
      const before = parseXliff(input);
      const after = parseXliff(result.xliff);
      for (const [f, file] of after.files.entries())
        for (const [u, unit] of file.units.entries()) {
          const original = before.files[f]!.units[u]!;
          expect({ ...unit, segments: unit.segments.map((s) => s.source) }).toEqual({
            ...original,
            segments: original.segments.map((s) => s.source),
          });
          unit.segments.forEach((segment, s) => {
            const old = original.segments[s]!;
            if (old.target) expect(segment).toEqual(old);
            else expect(segment.target).toBe(pseudoLocalize(old.source, 'en-XA'));
          });
        }
      // Nothing is missing any more: a second run is an identity, byte for byte.
      const again = await translateXliff(result.xliff, { ...options, translate: pseudo });
      expect(again).toEqual({ xliff: result.xliff, filled: 0, kept: [] });
    });
  });
}
