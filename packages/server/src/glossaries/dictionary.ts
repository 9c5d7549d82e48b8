/**
 * A glossary's dictionary for one language pair as translation and the features read it: compiled once per
 * glossary version into the process's cache of compiled glossaries (`compiled.ts`, an LRU by bytes under the
 * memory budget; a large one compiled in turns of the event loop), shared by every reader of that version.
 */
import type { Sized } from '../memory-budget.js';
import type { ResourceStore } from '../resources.js';
import { LARGE_GLOSSARY } from './candidates.js';
import { type CompiledGlossary, compiledGlossary } from './compiled.js';
import { type EntryList, EntryTable } from './entries.js';
import type { GlossaryRecord } from './store.js';

/** The compiled dictionary of `glossary` (read before) for `pair` (root languages); empty when it has none. */
export function compiledDictionary(
  resources: ResourceStore,
  accountId: string,
  glossary: GlossaryRecord,
  pair: { readonly source: string; readonly target: string },
): Promise<CompiledGlossary> {
  const entryCount =
    glossary.dictionaries.find(
      (dictionary) => dictionary.source === pair.source && dictionary.target === pair.target,
    )?.entryCount ?? 0;
  return compiledGlossary(
    accountId,
    `${glossary.id}:${glossary.version}:${pair.source}>${pair.target}`,
    entryCount,
    async () =>
      (await resources.glossaries.entryTable(accountId, glossary.id, pair.source, pair.target)) ??
      EntryTable.of([]),
    LARGE_GLOSSARY,
  );
}

/**
 * For a feature: the entries of the account's glossary `id` for `pair` (root languages), with the feature's
 * own index of them (`name`), built by `build` once per glossary version and kept, counted and evicted with
 * the compiled glossary (`CompiledGlossary.derived`). 'no glossary' when the account has no glossary `id`,
 * 'no dictionary' when it has none for the pair.
 */
export async function glossaryDictionary<T extends Sized>(
  resources: ResourceStore,
  accountId: string,
  id: string,
  pair: { readonly source: string; readonly target: string },
  name: string,
  build: (entries: EntryList) => Promise<T>,
): Promise<{ readonly entries: EntryList; readonly index: T } | 'no glossary' | 'no dictionary'> {
  const glossary = await resources.glossary(accountId, id);
  if (!glossary) return 'no glossary';
  if (
    !glossary.dictionaries.some(
      (dictionary) => dictionary.source === pair.source && dictionary.target === pair.target,
    )
  )
    return 'no dictionary';
  const compiled = await compiledDictionary(resources, accountId, glossary, pair);
  return { entries: compiled.entries, index: await compiled.derived(name, build) };
}
