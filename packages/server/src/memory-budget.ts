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
 * Budgets are per process (memory is): the last `configureMemoryBudget` wins when several servers share a
 * process, as tests do.
 */
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
  /** Builds in progress (a glossary being compiled), all accounts together. */
  building: 0.2,
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
      return await build();
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
