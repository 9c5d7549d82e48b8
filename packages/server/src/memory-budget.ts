/**
 * Byte budgets for what the process keeps or builds in memory, under one ceiling (`memoryBudgetMb`,
 * `--memory-budget-mb`; default 768 MiB, which fits a 1 GiB container).
 *
 * - A `BudgetedCache` is an LRU by bytes (lru-cache's `maxSize`/`sizeCalculation`) with a share of the
 *   ceiling for the whole process, and a smaller share per account: an account that adds past its share
 *   evicts its own least recently used entries first, never another account's. A value larger than an
 *   account's share is used once and not kept.
 * - Building something large (compiling a glossary) first reserves its estimated bytes from the ceiling's
 *   share for work in progress; when that share is taken the request is refused with 503 and
 *   `Retry-After` instead of growing the process, and each account may have at most one such build at a
 *   time (its next waits its turn: heavy work queues fairly per account).
 *
 * - Heavy work of any kind (a glossary parsed or compiled, a quality evaluation's thread, a TMX import) is
 *   admitted under the one ceiling by `withMemory` (`reserveMemory`), which every consumer shares, with the
 *   bytes it may add (estimated from its input): alone, when the RSS now plus its bytes fit under
 *   `ALONE_SHARE` of the ceiling; beside other heavy work, when the larger of the RSS now and the RSS when
 *   that work began plus the bytes it reserved (what it may still grow by), plus the new work's bytes, fit
 *   under `ADMITTED_SHARE` of it. Light work (under `LIGHT_WORK_BYTES`) is counted but never waits. What
 *   does not fit waits in one queue, first come first served (at most `MAX_WAITING_WORK`, each for at most
 *   its `waitMs`); the holders of memory that can be given back (caches, idle threads:
 *   `onMemoryPressure`) give it back meanwhile, and the main heap is collected; what still does not fit is
 *   refused with 503 and `Retry-After`, never run past the ceiling.
 * - Waiting is never in vain: memory freed is not always given back to the system (glibc keeps it in its
 *   arenas without `MALLOC_ARENA_MAX`, so an idle process can stay at 80–90% of its ceiling), and work that
 *   only fits alone would wait its whole `waitMs` for an RSS that never falls. When no heavy work is admitted
 *   (nothing is running that could give memory back), the relievers have run, and the RSS has not fallen by
 *   `LIGHT_WORK_BYTES` for `STALLED_MS`, the first waiting work that fits under `ALONE_SHARE` of the ceiling
 *   at that RSS is admitted (alone, even beside light work running, or behind work that cannot fit), and any
 *   before it that cannot fit so is refused at once with `STALLED_RETRY_AFTER_SECONDS`, rather than after its
 *   whole wait. Not under the whole ceiling: what an estimate misses comes on top (see `STALLED_MS`).
 *
 * Budgets are per process (memory is): the last `configureMemoryBudget` wins when several servers share a
 * process, as tests do.
 */

import { appendFileSync } from 'node:fs';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ERROR_CODES } from '@glossa/protocol';
import { LRUCache } from 'lru-cache';
import { ServiceError } from './errors.js';

const MIB = 2 ** 20;
export const DEFAULT_MEMORY_BUDGET_MB = 768;

/** Something that knows its size in memory (estimated), in bytes. */
export interface Sized {
  readonly bytes: number;
}

/** Shares of the ceiling. The rest is for the heap of requests in flight, the runtime and the engines. */
export const BUDGET_SHARES = {
  /** Compiled glossaries (matchers and entries), all accounts together. */
  glossaries: 0.3,
  /** Builds in progress (a glossary being parsed or compiled), all accounts together. */
  building: 0.25,
  /** One account's part of a cache's share. */
  account: 0.5,
} as const;

let ceilingBytes = DEFAULT_MEMORY_BUDGET_MB * MIB;
const caches = new Set<BudgetedCache<Sized>>();

/** Sets the process's ceiling (MiB); caches made before are emptied and resized. */
export function configureMemoryBudget(megabytes: number): void {
  if (!Number.isFinite(megabytes) || megabytes <= 0) {
    throw new RangeError(`memoryBudgetMb: expected a positive number, got ${JSON.stringify(megabytes)}`);
  }
  const bytes = megabytes * MIB;
  if (bytes === ceilingBytes) return;
  ceilingBytes = bytes;
  for (const cache of caches) cache.resize();
}

export const memoryCeilingBytes = () => ceilingBytes;

export function budgetExceeded(message: string, retryAfterSeconds: number): ServiceError {
  return new ServiceError(503, message, ERROR_CODES.serviceUnavailable, undefined, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

interface Entry<V> {
  readonly account: string;
  readonly value: V;
}

/** An LRU cache by bytes, with a share of the ceiling per process and per account. */
export class BudgetedCache<V extends Sized> {
  #lru!: LRUCache<string, Entry<V>>;
  readonly #byAccount = new Map<string, number>();

  constructor(
    readonly name: string,
    private readonly share: number,
  ) {
    this.resize();
    caches.add(this as unknown as BudgetedCache<Sized>);
  }

  /** Evicts the least recently used entries until at most `bytes` are held. */
  trim(bytes: number): void {
    for (const key of [...this.#lru.rkeys()]) {
      if (this.#lru.calculatedSize <= bytes) break;
      this.#lru.delete(key);
    }
  }

  /** The process's share, in bytes. */
  get maxBytes(): number {
    return Math.max(1, Math.floor(ceilingBytes * this.share));
  }

  /** One account's share, in bytes. */
  get accountMaxBytes(): number {
    return Math.max(1, Math.floor(this.maxBytes * BUDGET_SHARES.account));
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#lru.calculatedSize;
  }

  get size(): number {
    return this.#lru.size;
  }

  accountBytes(account: string): number {
    return this.#byAccount.get(account) ?? 0;
  }

  resize(): void {
    this.#lru?.clear();
    this.#byAccount.clear();
    this.#lru = new LRUCache<string, Entry<V>>({
      maxSize: this.maxBytes,
      sizeCalculation: (entry) => Math.max(1, Math.ceil(entry.value.bytes)),
      dispose: (entry) => {
        const left = (this.#byAccount.get(entry.account) ?? 0) - Math.max(1, Math.ceil(entry.value.bytes));
        if (left > 0) this.#byAccount.set(entry.account, left);
        else this.#byAccount.delete(entry.account);
      },
    });
  }

  get(key: string): V | undefined {
    return this.#lru.get(key)?.value;
  }

  /** Keeps `value` for `account` when it fits the account's share (evicting its own oldest first). */
  set(key: string, account: string, value: V): boolean {
    const size = Math.max(1, Math.ceil(value.bytes));
    if (size > this.accountMaxBytes) {
      this.#lru.delete(key);
      return false;
    }
    this.#lru.delete(key);
    let held = this.accountBytes(account);
    if (held + size > this.accountMaxBytes) {
      // Least recently used first: `rkeys` walks from the oldest.
      for (const other of [...this.#lru.rkeys()]) {
        if (held + size <= this.accountMaxBytes) break;
        const entry = this.#lru.peek(other);
        if (entry?.account !== account) continue;
        this.#lru.delete(other);
        held = this.accountBytes(account);
      }
    }
    this.#lru.set(key, { account, value });
    this.#byAccount.set(account, this.accountBytes(account) + size);
    return true;
  }

  clear(): void {
    this.#lru.clear();
  }
}

/** The share of the ceiling heavy work is admitted under beside other heavy work (their growth is not seen yet). */
export const ADMITTED_SHARE = 0.9;
/**
 * The share of the ceiling heavy work is admitted under alone: the margin is for what its estimate misses
 * (a 10 MiB glossary's compile, reserved 145 MiB, took the RSS to 1,014–1,027 MB of 1,024 admitted under the
 * whole ceiling, from the sources).
 */
export const ALONE_SHARE = 0.95;
/** Work reserving less than this is light: admitted at once (and counted), never queued or refused. */
export const LIGHT_WORK_BYTES = 4 * MIB;
/** Heavy work waiting for memory at most; more is refused at once. */
export const MAX_WAITING_WORK = 64;
/** How long a request's heavy work waits for memory by default before its 503. */
export const DEFAULT_MEMORY_WAIT_MS = 20_000;
/** The `Retry-After` (seconds) of work refused for memory now. */
const RETRY_AFTER_SECONDS = 10;
/** How often waiting work looks again at the RSS (memory given back comes without an event). */
const RECHECK_MS = 200;
/** How often the holders of memory are asked again to give it back while work waits. */
const RELIEVE_MS = 1000;
/**
 * How long the RSS may stay where it is, with work waiting, no heavy work admitted and the relievers run,
 * before the admission stops waiting for it (see the header): ten rounds of the relievers, and the forced
 * collection's first one. Memory that is given back comes within a second or two of the relievers at a calm
 * load (idle threads stopped, caches trimmed: 1,040 → 780–840 MB within a second in stop 44's traces), and
 * within 6–8 s at a load of 19 on 2 cores (a quality job's wait, bench:abuse built, 2026-11-29 10:13 and
 * 10:15: 896 → 788, 870 → 815 MiB); an RSS that does not fall by `LIGHT_WORK_BYTES` in 10 s after them is
 * memory the process keeps (glibc's arenas), which the full server's bench held for 10 minutes at
 * 834–908 MiB of 1,024 (stop 45).
 *
 * Admitted then under `ALONE_SHARE`, not the whole ceiling: the abuse test from the sources without
 * `MALLOC_ARENA_MAX` (glibc's 16 arenas on 2 cores, 2026-11-29) had 8 glossary compiles (145–150 MiB)
 * admitted so at RSS 841–877 MiB, which rose to 970–995 MiB by their release and to 1,046 MiB (over the
 * 1,024 MiB budget) just after, as the glossary was put to use; under `ALONE_SHARE` the same run refused 16
 * of them at once, each admitted later when the RSS had fallen to 816–826 MiB (64–82 s later), every input
 * served in the end, the peak 983 MiB. With `MALLOC_ARENA_MAX=2` (as `glossa-server` runs) the rule did not
 * fire in 4 runs of that test (peaks 882–947 MB).
 */
export const STALLED_MS = 10_000;
/** The `Retry-After` (seconds) of work that cannot fit under `ALONE_SHARE` of the ceiling at the RSS that stays. */
export const STALLED_RETRY_AFTER_SECONDS = 120;

interface Waiting {
  readonly bytes: number;
  readonly admit: () => void;
  /** Refuses it at once (`STALLED_RETRY_AFTER_SECONDS`); it has left the queue. */
  readonly refuse: () => void;
}

/**
 * Bytes reserved by admitted work, how many (`heavy`: of at least `LIGHT_WORK_BYTES`), the RSS when the
 * oldest of it began, and the work waiting.
 */
const admitted = { bytes: 0, count: 0, heavy: 0, baseRss: 0 };
const waiting: Waiting[] = [];
/** Since when (and at which RSS) work has waited with no heavy work admitted; whether relievers ran since. */
let stall: { since: number; rss: number; relieved: boolean } | undefined;
let recheck: NodeJS.Timeout | undefined;
const relievers = new Set<() => void>([
  // Heavy work waiting for memory: each cache's least recently used half goes.
  () => {
    for (const cache of caches) cache.trim(cache.bytes / 2);
  },
]);
/** The process's RSS (replaced in tests). */
let rssOf = () => process.memoryUsage.rss();

/** Registers what gives memory back when heavy work waits (evict a cache, stop idle threads); returns its removal. */
export function onMemoryPressure(relieve: () => void): () => void {
  relievers.add(relieve);
  return () => relievers.delete(relieve);
}

/** Tests: the RSS the admission reads (undefined: the process's). */
export function measureRssWith(measure: (() => number) | undefined): void {
  rssOf = measure ?? (() => process.memoryUsage.rss());
}

/** What the process would hold with `bytes` more of heavy work: see the header. */
function fits(bytes: number): boolean {
  const rss = rssOf();
  // Alone, the work's own bytes bound its growth (with `ALONE_SHARE`'s margin for what an estimate misses).
  // With other work running, their growth since the RSS was read is not seen yet: `ADMITTED_SHARE`.
  if (admitted.count === 0) return rss + bytes <= ceilingBytes * ALONE_SHARE;
  return Math.max(rss, admitted.baseRss + admitted.bytes) + bytes <= ceilingBytes * ADMITTED_SHARE;
}

/**
 * GLOSSA_MEMORY_TRACE=1 prints each heavy work's admission, wait, refusal and release on stderr with the RSS
 * and what is admitted (=<file>: appends them to that file).
 */
const traceTo = process.env.GLOSSA_MEMORY_TRACE;
const trace = traceTo
  ? (event: string, what: string, bytes: number) => {
      const line = `memory ${new Date().toISOString()} ${event} ${what} ${Math.round(bytes / MIB)} MiB: rss ${Math.round(rssOf() / MIB)} MiB, admitted ${Math.round(admitted.bytes / MIB)} MiB (${admitted.count}), waiting ${waiting.length}`;
      if (traceTo === '1') console.error(line);
      else appendFileSync(traceTo, `${line}\n`);
    }
  : () => {};

function take(what: string, bytes: number): () => void {
  if (admitted.count === 0) admitted.baseRss = rssOf();
  admitted.count++;
  admitted.bytes += bytes;
  if (bytes >= LIGHT_WORK_BYTES) {
    admitted.heavy++;
    trace('admitted', what, bytes);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    admitted.count--;
    admitted.bytes -= bytes;
    if (bytes >= LIGHT_WORK_BYTES) {
      admitted.heavy--;
      trace('released', what, bytes);
    }
    admitNext();
  };
}

/** Admits waiting work, in order, while the first fits. */
let relieved = 0;

function admitNext(): void {
  while (waiting.length > 0 && fits(waiting[0]!.bytes)) waiting.shift()!.admit();
  if (waiting.length > 0 && performance.now() - relieved >= RELIEVE_MS) relieve();
  if (stalled()) {
    stall = undefined;
    // Nothing will give memory back: the first that fits alone runs alone, and what
    // could not fit even so is told so now rather than after its whole wait.
    while (waiting.length > 0) {
      const first = waiting.shift()!;
      if (rssOf() + first.bytes <= ceilingBytes * ALONE_SHARE) {
        trace('the RSS stays: alone', 'the first waiting work', first.bytes);
        first.admit();
        break;
      }
      first.refuse();
    }
  }
  if (waiting.length === 0) {
    clearInterval(recheck);
    recheck = undefined;
  } else if (!recheck) {
    recheck = setInterval(admitNext, RECHECK_MS);
    recheck.unref();
  }
}

/**
 * At most one forced collection of the main heap per `COLLECT_MS`, and only once the heap holds
 * `COLLECT_GROWTH_BYTES` more than after the last one (else there is little garbage to find). A forced
 * collection is a full one, not incremental: it holds the event loop while it marks the whole heap. Forced
 * every 5 s while work waited, bench:abuse (built, 2026-11-29) saw 78 of them in 6 minutes, 86–544 ms each
 * (median 137 ms, 13 s in all), the longest waits of the normal client; V8's own collections hold it far less.
 * Throttled so, bench:abuse `ONLY=all` (built, `MALLOC_ARENA_MAX=2`, load 10–13, 2026-11-29) still saw
 * 274–433 ms ones, 2 of 3 while heavy work ran (and 313–684 ms in the abuse test, 4 of 7 so): none now
 * while heavy work runs. Since a glossary's text no longer passes through the main heap, its garbage is not
 * what holds the RSS: the one forced collection of the next run (load 4–7) took 126 ms to free 8 MiB of a
 * 111 MiB heap. So only a heap grown by `COLLECT_GROWTH_BYTES` (256 MiB) is collected by force.
 */
const COLLECT_MS = 30_000;
const COLLECT_GROWTH_BYTES = 256 * MIB;
let collected = Number.NEGATIVE_INFINITY;
let heapAfterCollect = 0;
let collectGarbage: (() => void) | undefined;

/**
 * A full collection of this thread's heap: what work left behind is garbage until V8 next collects, which an
 * idle process may not do for a long time, and waiting work waits on it. `--expose-gc` is set for the
 * moment it takes to get V8's `gc` function (once).
 */
function collect(): void {
  if (performance.now() - collected < COLLECT_MS) return;
  const heapBefore = getHeapStatistics().used_heap_size;
  if (heapBefore < heapAfterCollect + COLLECT_GROWTH_BYTES) return;
  collected = performance.now();
  if (!collectGarbage) {
    setFlagsFromString('--expose-gc');
    collectGarbage = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  const start = performance.now();
  collectGarbage();
  heapAfterCollect = getHeapStatistics().used_heap_size;
  // What it freed of the main heap (the figure traced) and how long it held the event loop.
  trace(
    `collected in ${Math.round(performance.now() - start)} ms`,
    `the main heap (${Math.round(heapBefore / MIB)} MiB before)`,
    heapBefore - heapAfterCollect,
  );
}

/**
 * Whether work waits in vain: no heavy work admitted, the relievers run, and the RSS not fallen by
 * `LIGHT_WORK_BYTES` for `STALLED_MS` (a fall starts the count again).
 */
function stalled(): boolean {
  if (waiting.length === 0 || admitted.heavy > 0) {
    stall = undefined;
    return false;
  }
  const now = performance.now();
  const rss = rssOf();
  if (!stall || rss < stall.rss - LIGHT_WORK_BYTES) {
    stall = { since: now, rss, relieved: false };
    return false;
  }
  return stall.relieved && now - stall.since >= STALLED_MS;
}

function relieve(): void {
  relieved = performance.now();
  if (stall) stall.relieved = true;
  for (const reliever of relievers) {
    try {
      reliever();
    } catch {}
  }
  // After the relievers: what they let go is garbage now. Not while heavy work runs: what waits needs it to
  // end first (its release relieves again), and a forced collection then only holds the event loop.
  if (admitted.heavy > 0) return;
  try {
    collect();
  } catch {}
}

/** Whether work of `bytes` is more than the budget ever admits (refused at once, whatever the RSS). */
const tooLarge = (bytes: number) => bytes > ceilingBytes * ADMITTED_SHARE * 0.5;

/**
 * Reserves `bytes` for heavy work (`what`, for the error) once they fit under the ceiling with everything
 * else the process holds and is doing: at once, or after waiting at most `waitMs` in the queue; refuses with
 * 503 and `Retry-After` when the queue is full, the wait runs out, or the work alone could never fit, and
 * rejects with `signal`'s reason when it is aborted while waiting. The returned function gives the bytes
 * back (once).
 */
export async function reserveMemory(
  what: string,
  bytes: number,
  waitMs = DEFAULT_MEMORY_WAIT_MS,
  signal?: AbortSignal,
): Promise<() => void> {
  signal?.throwIfAborted();
  if (tooLarge(bytes))
    throw budgetExceeded(
      `${what} needs about ${Math.ceil(bytes / MIB)} MiB, more than this server's memory budget allows.`,
      60,
    );
  // Light work is not queued (it is counted): a process over its ceiling still answers small requests.
  if (bytes < LIGHT_WORK_BYTES || (waiting.length === 0 && fits(bytes))) return take(what, bytes);
  trace('waits', what, bytes);
  if (waiting.length >= MAX_WAITING_WORK)
    throw budgetExceeded(
      `The server's memory is taken by other work (${what}). Retry later.`,
      RETRY_AFTER_SECONDS,
    );
  relieve();
  // Admitted in `admitNext`'s loop, reserved there at once (before it looks at the next one).
  const release = await new Promise<(() => void) | 'waited' | 'stalled'>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const leave = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      waiting.splice(waiting.indexOf(entry), 1);
      admitNext();
    };
    const aborted = () => {
      leave();
      reject(signal?.reason);
    };
    const entry: Waiting = {
      bytes,
      admit: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        resolve(take(what, bytes));
      },
      refuse: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        resolve('stalled');
      },
    };
    waiting.push(entry);
    signal?.addEventListener('abort', aborted, { once: true });
    if (Number.isFinite(waitMs))
      timer = setTimeout(() => {
        leave();
        resolve('waited');
      }, waitMs);
    admitNext();
  });
  if (release === 'stalled') {
    trace('refused (the RSS stays)', what, bytes);
    throw budgetExceeded(
      `${what} needs about ${Math.ceil(bytes / MIB)} MiB, and the memory this server holds (${Math.round(rssOf() / MIB)} MiB of ${Math.round(ceilingBytes / MIB)}) is not coming down. Retry later.`,
      STALLED_RETRY_AFTER_SECONDS,
    );
  }
  if (release === 'waited') {
    trace('refused', what, bytes);
    throw budgetExceeded(
      `The server's memory is taken by other work (${what}). Retry later.`,
      RETRY_AFTER_SECONDS,
    );
  }
  return release;
}

/** Work refused for memory taken now that waits its `Retry-After` to queue again (`reserveMemoryPatiently`). */
let retrying = 0;

/**
 * `reserveMemory` for work no client waits on (a job): a refusal for memory taken now (its wait of `waitMs`
 * ran out, the queue was full, the RSS stays) is not its end, as it is a request's. It waits the refusal's
 * `Retry-After` out of the queue (the work behind it goes on meanwhile) and queues again, until it is
 * admitted, or `signal` aborts (rejects with its reason). Work larger than the budget ever admits is refused
 * as by `reserveMemory`.
 */
export async function reserveMemoryPatiently(
  what: string,
  bytes: number,
  waitMs: number,
  signal?: AbortSignal,
): Promise<() => void> {
  for (;;) {
    try {
      return await reserveMemory(what, bytes, waitMs, signal);
    } catch (error) {
      if (signal?.aborted || tooLarge(bytes) || !(error instanceof ServiceError) || error.status !== 503)
        throw error;
      const seconds = Number(error.headers['retry-after']);
      trace(`refused, queues again in ${seconds} s`, what, bytes);
      retrying++;
      try {
        await new Promise<void>((resolve, reject) => {
          const aborted = () => {
            clearTimeout(timer);
            reject(signal?.reason);
          };
          const timer = setTimeout(() => {
            signal?.removeEventListener('abort', aborted);
            resolve();
          }, seconds * 1000);
          signal?.addEventListener('abort', aborted, { once: true });
        });
      } finally {
        retrying--;
      }
    }
  }
}

/** Runs `work` with `bytes` reserved (`reserveMemory`), given back when it settles. */
export async function withMemory<T>(
  what: string,
  bytes: number,
  work: () => Promise<T>,
  waitMs?: number,
  signal?: AbortSignal,
): Promise<T> {
  const release = await reserveMemory(what, bytes, waitMs, signal);
  try {
    return await work();
  } finally {
    release();
  }
}

/** Heavy work admitted, waiting, and refused waiting to queue again now (tests and metrics). */
export const memoryAdmission = () => ({
  bytes: admitted.bytes,
  running: admitted.count,
  waiting: waiting.length,
  retrying,
});

/** Bytes reserved by builds in progress, in all and per account. */
let building = 0;
const buildingAccounts = new Map<string, Promise<void>>();

/**
 * Runs `build` (estimated at `bytes`) once the account's previous build is done and the building share
 * has room; refuses with 503 and `Retry-After` when the share cannot hold it now.
 */
export async function withBuildBudget<T>(
  account: string,
  bytes: number,
  build: () => Promise<T>,
): Promise<T> {
  const limit = Math.floor(ceilingBytes * BUDGET_SHARES.building);
  if (bytes > limit) {
    throw budgetExceeded(
      `This needs about ${Math.ceil(bytes / MIB)} MiB to prepare, more than this server's memory budget allows.`,
      60,
    );
  }
  // One build at a time per account: the next one waits for the previous one to finish.
  const previous = buildingAccounts.get(account);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const chained = (previous ?? Promise.resolve()).then(() => mine);
  buildingAccounts.set(account, chained);
  try {
    if (previous) await previous;
    if (building + bytes > limit) {
      throw budgetExceeded('The server is preparing other large resources. Retry later.', 5);
    }
    building += bytes;
    try {
      return await withMemory('Preparing this glossary', bytes, build);
    } finally {
      building -= bytes;
    }
  } finally {
    release();
    if (buildingAccounts.get(account) === chained) buildingAccounts.delete(account);
  }
}

/** Bytes reserved by builds in progress now (for tests and metrics). */
export const buildingBytes = () => building;
