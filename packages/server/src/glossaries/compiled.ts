/**
 * Compiled glossaries: one matcher per glossary version and language pair, built once and kept in an LRU
 * by bytes under the process's memory budget (`memory-budget.ts`), per process and per account.
 *
 * Compiling costs time and memory linear in the entries (about 120 bytes an entry beyond the entries
 * themselves) and runs in slices of `SLICE` entries (a few ms each) with the event loop free between them, so a 160,000-
 * entry glossary never holds other clients up for long; the word index of a large glossary (a sort of its
 * words: 1–2 s for 160,000 entries) is built on the glossary thread (`thread.ts`). Requests for the same version while it compiles
 * share the one compilation; an account compiles one glossary at a time, and a compilation that does not
 * fit the budget for work in progress is refused (503 with `Retry-After`).
 */
import type { GlossaryEntry } from '@glossa/protocol';
import { BUDGET_SHARES, BudgetedCache, withBuildBudget } from '../memory-budget.js';
import { WordIndex } from './candidates.js';
import { TermMatcher } from './matcher.js';
import { wordIndexOnThread } from './thread.js';

export interface CompiledGlossary {
  /** Glossary id, version and language pair. */
  readonly key: string;
  readonly matcher: TermMatcher;
  readonly entries: readonly { readonly source: string; readonly target: string }[];
  /** Words of the entries, for the candidates of a large glossary (built on first use). */
  words(): WordIndex;
  readonly bytes: number;
}

/** Estimated bytes of entries as loaded (strings and objects), before anything is compiled. */
export function entriesBytes(entries: readonly GlossaryEntry[]): number {
  let bytes = 16 + 8 * entries.length;
  for (const entry of entries) bytes += 2 * (entry.source.length + entry.target.length) + 32 + 40;
  return bytes;
}

/** A guess of a compiled glossary's bytes from its entry count, to reserve before loading it. */
export const estimateCompiledBytes = (entryCount: number) => 4096 + 300 * entryCount;

const SLICE = 500;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

class Compiled implements CompiledGlossary {
  #words: WordIndex | undefined;
  #bytes: number;
  constructor(
    readonly key: string,
    readonly matcher: TermMatcher,
    readonly entries: readonly GlossaryEntry[],
    entryBytes: number,
  ) {
    this.#bytes = entryBytes + matcher.bytes;
  }
  get bytes() {
    return this.#bytes + (this.#words?.bytes ?? 0);
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

/** The entries' sources, one a line, joined `SLICE` entries per turn of the event loop. */
async function sourcesText(entries: readonly GlossaryEntry[]): Promise<string> {
  const pieces: string[] = [];
  for (let from = 0; from < entries.length; from += SLICE) {
    if (from > 0) await yieldToLoop();
    pieces.push(
      entries
        .slice(from, from + SLICE)
        .map((entry) => entry.source)
        .join('\n'),
    );
  }
  return pieces.join('\n');
}

/** Builds a matcher over `entries`, `SLICE` entries per turn of the event loop. */
export async function compileMatcher(entries: readonly GlossaryEntry[]): Promise<TermMatcher> {
  if (entries.length <= SLICE) return new TermMatcher(entries);
  const matcher = new TermMatcher([]);
  for (let from = 0; from < entries.length; from += SLICE) {
    await yieldToLoop();
    matcher.add(entries, from, Math.min(entries.length, from + SLICE));
  }
  return matcher;
}

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
  load: () => Promise<readonly GlossaryEntry[]>,
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
      const compiled = new Compiled(key, await compileMatcher(entries), entries, entriesBytes(entries));
      if (entries.length > largeAt)
        compiled.wordIndex = new WordIndex(await wordIndexOnThread(await sourcesText(entries)));
      cache.set(key, account, compiled);
      return compiled;
    }).finally(() => compiling.delete(key));
    compiling.set(key, pending);
  }
  return pending;
}
