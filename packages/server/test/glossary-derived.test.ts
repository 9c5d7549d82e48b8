/**
 * A feature's own index of a compiled glossary (`CompiledGlossary.derived`, quality's term finder): built
 * once per glossary version whoever asks and however many ask at once, counted in the cache of compiled
 * glossaries from then on, built again for a new version, and not kept when its build fails.
 */
import { afterEach, expect, it } from 'vitest';
import { compiledGlossaries, compiledGlossary } from '../src/glossaries/compiled.js';
import { EntryTable } from '../src/glossaries/entries.js';

const entries = [
  { source: 'file', target: 'archivo' },
  { source: 'folder', target: 'carpeta' },
];
const compile = (version: number) =>
  compiledGlossary('account', `g:${version}:en>es`, entries.length, async () => EntryTable.of(entries), 2000);

afterEach(() => compiledGlossaries.clear());

it('builds a derived index once per version, shares it, and counts its bytes', async () => {
  let builds = 0;
  const build = async (list: { length: number; source(index: number): string }) => {
    builds++;
    return { bytes: 10_000, sources: Array.from({ length: list.length }, (_, index) => list.source(index)) };
  };
  const compiled = await compile(1);
  const before = compiledGlossaries.bytes;
  const [first, second] = await Promise.all([
    compiled.derived('terms', build),
    compiled.derived('terms', build),
  ]);
  expect(first).toBe(second);
  expect(first.sources).toEqual(['file', 'folder']);
  expect(builds).toBe(1);
  expect(compiledGlossaries.bytes).toBe(before + 10_000);
  expect(compiledGlossaries.accountBytes('account')).toBe(before + 10_000);
  // The same version from the cache keeps it; another version builds its own.
  expect(await (await compile(1)).derived('terms', build)).toBe(first);
  expect(builds).toBe(1);
  await (await compile(2)).derived('terms', build);
  expect(builds).toBe(2);
});

it('does not keep a build that failed', async () => {
  const compiled = await compile(3);
  await expect(
    compiled.derived('terms', async () => {
      throw new Error('no memory');
    }),
  ).rejects.toThrow('no memory');
  expect(await compiled.derived('terms', async () => ({ bytes: 1 }))).toEqual({ bytes: 1 });
});
