/**
 * Everything the server keeps, behind one interface: SQLite (`createSqliteStorage`) by default, PostgreSQL
 * (`createPostgresStorage`) for several instances sharing state. Methods are async so a networked store can implement them;
 * each method that must be atomic (quota reservation) says so.
 */
import type { JobBackend } from '../jobs/job-backend.js';
import type { UsageProduct, UsageRecord } from './usage-record.js';

export type Plan = 'free' | 'paid';

export interface Account {
  readonly id: string;
  readonly plan: Plan;
  readonly admin: boolean;
  readonly detectionBeta: boolean;
  readonly qualityAlpha: boolean;
  /** Enrolled in the asynchronous voice jobs alpha. */
  readonly voiceJobsAlpha: boolean;
  readonly memoryMatches: boolean;
  /** Monthly character limit (translate + write characters). */
  readonly characterLimit: number;
  readonly createdAt: string;
}

export interface NewAccount {
  readonly id: string;
  readonly plan: Plan;
  readonly admin: boolean;
  readonly detectionBeta: boolean;
  readonly qualityAlpha: boolean;
  readonly voiceJobsAlpha: boolean;
  readonly memoryMatches: boolean;
  readonly characterLimit: number;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
}

export { CHARACTER_PRODUCTS, type UsageProduct, type UsageRecord } from './usage-record.js';

export interface Reservation extends UsageRecord {
  /** Billing period as UTC days: `from` inclusive, `to` exclusive. */
  readonly periodFrom: string;
  readonly periodTo: string;
  readonly limit: number;
  /**
   * Makes the reservation once per operation (like `applyUsageOnce`): the id is recorded in the transaction
   * that adds the units, committed before the call resolves, and a later reservation with the same id
   * returns true without reserving again (a job run again after a crash finds its characters reserved).
   */
  readonly operationId?: string;
}

export interface UsageTotal {
  readonly product: UsageProduct;
  readonly accountUnits: number;
  readonly keyUnits: number;
}

export interface CustomTagUsageQuery {
  readonly accountId: string;
  /** UTC days, both inclusive. */
  readonly from: string;
  readonly to: string;
  readonly byDay: boolean;
  readonly offset: number;
  readonly limit: number;
}

export interface CustomTagUsageRow {
  readonly customTag: string;
  /** Present when grouped by day. */
  readonly day?: string;
  readonly units: Readonly<Partial<Record<UsageProduct, number>>>;
}

/**
 * Characters one engine was sent for one account on one day (a call that answered; cache and memory hits
 * reach no engine). What the providers behind the engines bill, per account: apart from `usage`, which
 * holds what the account is billed and counts against its limit.
 */
export interface EngineUsageRecord {
  readonly accountId: string;
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** The engine's name: `deepl`, `openai`, `apertium`, `upstream`… */
  readonly engine: string;
  /** Unicode code points of the texts sent. */
  readonly characters: number;
  /** LLM engines: the tokens their calls used, as the provider's answers count them. */
  readonly tokensIn?: number;
  readonly tokensOut?: number;
}

export interface EngineUsageQuery {
  readonly accountId: string;
  /** UTC days, both inclusive. */
  readonly from: string;
  readonly to: string;
  readonly byDay: boolean;
}

export interface EngineUsageRow {
  readonly engine: string;
  /** Present when grouped by day. */
  readonly day?: string;
  readonly characters: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
}

export interface JobBackendOptions {
  /** How often an idle worker looks for work (SQLite: in ms, default 500; PostgreSQL: pg-boss's polling, 2 s). */
  readonly pollMs?: number;
  readonly onError?: ((error: unknown) => void) | undefined;
  /** SQLite: how old a files directory of no job must be before the sweep removes it (default 10 minutes). */
  readonly orphanFilesMs?: number;
}

export interface Storage {
  createAccount(account: NewAccount): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  /** Stores a key by its hash only. */
  addKey(accountId: string, keyHash: string): Promise<ApiKeyRecord>;
  findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: Account } | undefined>;
  /** Deletes the key with this hash; false when there was none. */
  revokeKey(keyHash: string): Promise<boolean>;
  getSetting(name: string): Promise<string | undefined>;
  setSetting(name: string, value: string): Promise<void>;
  /** Atomically: sets the setting when it has no value yet; returns the value it has now (this one or the first). */
  claimSetting(name: string, value: string): Promise<string>;
  /** Deletes these settings (those that exist). */
  deleteSettings(names: readonly string[]): Promise<void>;
  /**
   * Atomically: when the account's character products in the period plus `units` stay within `limit`,
   * record the usage and return true; otherwise record nothing and return false.
   */
  reserveCharacters(reservation: Reservation): Promise<boolean>;
  /** Adds units (negative to refund a reservation whose work failed). */
  recordUsage(record: UsageRecord): Promise<void>;
  /**
   * Adds units once per operation: `operationId` (e.g. `documents/<id>/refund`) is recorded in the same
   * transaction as the units, so calling again with the same id (a retry, a recovery after a crash) changes
   * nothing. Committed before it resolves (never written behind). True when this call applied the units,
   * false when the operation had been applied already.
   */
  applyUsageOnce(operationId: string, record: UsageRecord): Promise<boolean>;
  /**
   * Forgets the operation ids starting with `prefix` (e.g. `documents/`) that were recorded before
   * `appliedBefore` (by `applyUsageOnce` or a reservation's `operationId`); how many. Once forgotten, an id
   * applies its units again: the feature that owns the prefix calls this only with a bound before which
   * none of its operations can be applied again (each says why, next to its call).
   */
  pruneUsageOperations(prefix: string, appliedBefore: Date): Promise<number>;
  /**
   * Commits the usage recorded so far now (the SQLite store writes usage behind; PostgreSQL writes each
   * record at once): for a caller whose next durable write relies on it, e.g. a failed document marked
   * as owing the refund of its upload's reservation (a crash must not keep the mark and lose the
   * reservation).
   */
  commitUsage(): Promise<void>;
  /** Units per product for the account and for one of its keys, days `from` inclusive to `to` exclusive. */
  usageTotals(accountId: string, keyId: string, from: string, to: string): Promise<UsageTotal[]>;
  /** Tagged usage of one account, ordered by tag (then day), one page. */
  customTagUsage(query: CustomTagUsageQuery): Promise<CustomTagUsageRow[]>;
  /**
   * Adds characters sent to engines and LLM tokens (`EngineUsageRecord`). Not counted against any limit; the SQLite store
   * writes them behind like usage (read back after a flush), PostgreSQL at once.
   */
  recordEngineUsage(records: readonly EngineUsageRecord[]): Promise<void>;
  /** Characters (and tokens) each engine was sent for one account in a range, ordered by engine (then day). */
  engineUsage(query: EngineUsageQuery): Promise<EngineUsageRow[]>;
  /**
   * The job runner's storage (`createJobRunner`), on this store's database: its state changes and their
   * usage commit in one transaction. Closed with the store.
   */
  openJobBackend(options?: JobBackendOptions): JobBackend;
  close(): Promise<void>;
}
