/**
 * The glossary terms a voice session writes as spelled (`glossarySourceTerms`: source terms with case) from a
 * 160,000-entry glossary (issue 31): read through the dictionary's compact table, not as 160,000 objects.
 * The terms are those read from every entry as an object (the store's `entries`, as before), in the same
 * order, from each dictionary of the session's source language and none of another. A real glossary store
 * on a SQLite file (the large dictionary is written and read on its database thread, as in the server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { afterAll, expect, it } from 'vitest';
import { createGlossaryStore, newDictionary } from '../../server/src/glossaries/store.js';
import { openResourceDatabase } from '../../server/src/storage/resource-db.js';
import { glossarySourceTerms } from '../src/resources.js';

const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-glossary-'));
const db = openResourceDatabase(dir);
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const ENTRIES = 160_000;
/** Entry `i`: every fifth source capitalised, every seventh all capitals, the rest lower case. */
const source = (i: number) => {
  const term = `term${i.toString(36)}`;
  return i % 7 === 0 ? term.toUpperCase() : i % 5 === 0 ? `T${term.slice(1)}` : term;
};

it('a 160,000-entry glossary gives the terms with case that every entry as an object gave', async () => {
  const glossaries = createGlossaryStore(db);
  const entries = (count: number, target: string) =>
    Array.from({ length: count }, (_, i) => ({ source: source(i), target: `${target} ${i}` }));
  const record = await glossaries.create('a', 'large', [
    newDictionary({ source: 'en', target: 'es' }, entries(ENTRIES, 'objetivo')),
    newDictionary({ source: 'en', target: 'de' }, entries(1_000, 'Ziel')),
    newDictionary({ source: 'de', target: 'en' }, [{ source: 'Haus', target: 'house' }]),
  ]);
  const context = { resources: { glossaries } } as unknown as ServiceContext;
  const caller = { account: { id: 'a' } } as unknown as Caller;

  const terms = await glossarySourceTerms(context, caller, 'en-US', record.id);
  // As before: each dictionary of the source language read as objects.
  const before = new Set<string>();
  for (const dictionary of record.dictionaries) {
    if (dictionary.source.toLowerCase().split('-')[0] !== 'en') continue;
    const read = (await glossaries.entries('a', record.id, dictionary.source, dictionary.target)) ?? [];
    for (const { source: term } of read) if (term !== term.toLowerCase()) before.add(term);
  }
  expect(terms).toEqual([...before]);
  // Every fifth or seventh source has case (those of en → de are among them: a set).
  expect(terms.length).toBe(
    Array.from({ length: ENTRIES }, (_, i) => i % 5 === 0 || i % 7 === 0).filter(Boolean).length,
  );
  expect(terms).toContain('TERM0');
  expect(terms).not.toContain('Haus');
  expect(await glossarySourceTerms(context, caller, 'de', record.id)).toEqual(['Haus']);
  expect(await glossarySourceTerms(context, caller, 'en', 'missing')).toEqual([]);
});
