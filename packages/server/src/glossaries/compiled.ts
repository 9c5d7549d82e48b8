/**
 * Compiled glossaries: one matcher per glossary version and language pair, built once and kept in an LRU
 * by bytes under the process's memory budget (`memory-budget.ts`), per process and per account.
 *
 * Compiling costs time and memory linear in the entries: the entries are held as read (`EntryTable`: the
 * stored text and 16 bytes of offsets an entry), the matcher adds integer tables of a few tens of bytes an
 * entry, no object or string per entry. It is built in turns of a few ms with the event loop free between
 * them, so a 160,000-entry glossary never holds other clients up for long; the word index of a large
 * glossary (a sort of its words: 1–2 s for 160,000 entries) is built on the glossary thread (`thread.ts`)
 * from the dictionary's UTF-8 as read (`EntryTable.utf8`), its sources never joined here. Requests for the same version while it compiles
 * share the one compilation; an account compiles one glossary at a time, and a compilation that does not
 * fit the budget for work in progress is refused (503 with `Retry-After`).
 */
import { BUDGET_SHARES, BudgetedCache, type Sized, withBuildBudget } from '../memory-budget.js';
import { WordIndex } from './candidates.js';
import type { EntryList, EntryTable } from './entries.js';
import { TermMatcher } from './matcher.js';
import { wordIndexOnThread } from './thread.js';

export interface CompiledGlossary {
  /** Glossary id, version and language pair. */
  readonly key: string;
  readonly matcher: TermMatcher;
  /** The entries, compact (`EntryTable`: the stored text and offsets, no object per entry). */
  readonly entries: EntryList;
  /** Words of the entries, for the candidates of a large glossary (built on first use). */
  words(): WordIndex;
  /**
   * A feature's own structure over the entries (quality's term finder), built by `build` once per compiled
   * glossary (concurrent calls share it) and kept with it: counted in `bytes` and evicted with it.
   */
  derived<T extends Sized>(name: string, build: (entries: EntryList) => Promise<T>): Promise<T>;
  readonly bytes: number;
}

/**
 * The memory compiling a glossary may add to the process, from its entry count, reserved before loading it:
 * the entries read, the matcher, the word index built on the glossary thread (its heap) and what the
 * compilation leaves for the garbage collector. Measured in the full server from the sources
 * (abuse-full.test.ts, GLOSSA_MEMORY_TRACE=1): 160,000 entries added 91–141 MB of RSS while compiling,
 * though the compiled glossary keeps about 46 MB.
 */
export const estimateCompiledBytes = (entryCount: number) => 4096 + 950 * entryCount;

class Compiled implements CompiledGlossary {
  #words: WordIndex | undefined;
  #bytes: number;
  readonly #derived = new Map<string, Promise<Sized>>();
  #derivedBytes = 0;
  constructor(
    readonly key: string,
    readonly account: string,
    readonly matcher: TermMatcher,
    readonly entries: EntryTable,
  ) {
    this.#bytes = entries.bytes + matcher.bytes;
  }
  get bytes() {
    return this.#bytes + (this.#words?.bytes ?? 0) + this.#derivedBytes;
  }
  derived<T extends Sized>(name: string, build: (entries: EntryList) => Promise<T>): Promise<T> {
    let pending = this.#derived.get(name) as Promise<T> | undefined;
    if (!pending) {
      pending = build(this.entries).then((value) => {
        this.#derivedBytes += value.bytes;
        // Counted from now on: the cache measures an entry when it is set (and drops it if it no longer fits).
        if (cache.get(this.key) === this) cache.set(this.key, this.account, this);
        return value;
      });
      pending.catch(() => this.#derived.delete(name));
      this.#derived.set(name, pending);
    }
    return pending;
  }
  words(): WordIndex {
    // Counted in `bytes` from now on; the cache measured the entry when it was added, which is why the
    // word index is built at once for large glossaries (see `compiledGlossary`).
    this.#words ??= WordIndex.of(this.entries);
    return this.#words;
  }
  set wordIndex(words: WordIndex) {
    this.#words = words;
  }
}

/** Builds a matcher over `entries` in turns of the event loop (its tables sized once: `TermMatcher.compile`). */
export const compileMatcher = (entries: EntryList): Promise<TermMatcher> => TermMatcher.compile(entries);

const cache = new BudgetedCache<Compiled>('glossaries', BUDGET_SHARES.glossaries);
const compiling = new Map<string, Promise<Compiled>>();

/** The compiled glossaries cache (for tests and metrics). */
export const compiledGlossaries = cache;

/**
 * The compiled form of one glossary version for `account`: from the cache, or compiled now (shared with
 * concurrent requests for the same key). `entryCount` sizes the reservation before the entries are loaded.
 */
export async function compiledGlossary(
  account: string,
  key: string,
  entryCount: number,
  load: () => Promise<EntryTable>,
  largeAt: number,
): Promise<CompiledGlossary> {
  const cached = cache.get(key);
  if (cached) return cached;
  let pending = compiling.get(key);
  if (!pending) {
    pending = withBuildBudget(account, estimateCompiledBytes(entryCount), async () => {
      const again = cache.get(key);
      if (again) return again;
      const entries = await load();
      const compiled = new Compiled(key, account, await compileMatcher(entries), entries);
      if (entries.length > largeAt)
        compiled.wordIndex = new WordIndex(await wordIndexOnThread(await entries.utf8()));
      cache.set(key, account, compiled);
      return compiled;
    }).finally(() => compiling.delete(key));
    compiling.set(key, pending);
  }
  return pending;
}
