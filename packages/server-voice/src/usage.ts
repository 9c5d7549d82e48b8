/**
 * The minutes of a voice job (either interface: `voice_jobs`, `voice_translate_jobs`; either backend) are
 * recorded exactly once, even when the process dies (SIGKILL, a lost machine) in the middle, in two steps:
 * 1. the statement that finishes the job also writes the usage it owes, as JSON, in its row's
 *    `usage_pending` (the minutes, the product, the day of the finish): from that moment the minutes are
 *    owed durably, with the result;
 * 2. the usage is applied with the spine's `applyUsageOnce`, keyed `voice/<table>/<job id>/minutes`, then
 *    `usage_pending` is cleared.
 * A crash between 1 and 2 leaves `usage_pending` set, and the recovery applies it again: an embedded
 * server when it starts (jobs.ts, translate-jobs.ts), and on a fleet every instance when it starts and at
 * each lease check (fleet-queue.ts). Usage applied before the crash is not applied twice (the storage keeps
 * the operation id in the transaction that added it); usage that was not is applied then. A job is
 * finished once (on a fleet, fenced by its attempt), so it owes its minutes once. A failed job owes none.
 * The operation ids nothing can apply again are forgotten (`pruneOperations`).
 */
import type { ServiceContext } from '@glossa/server/feature';
import { forgetUsageOperations, utcDay } from '@glossa/server/feature';
import type Database from 'better-sqlite3';

/** The tables of the two job interfaces. */
export type JobTable = 'voice_jobs' | 'voice_translate_jobs';
export const JOB_TABLES: readonly JobTable[] = ['voice_jobs', 'voice_translate_jobs'];

type UsageRecord = Parameters<ServiceContext['storage']['applyUsageOnce']>[1];

/** Usage a finished job owes and has not applied yet: its row's `usage_pending`. */
export interface OwedUsage {
  readonly table: JobTable;
  readonly id: string;
  /** The usage record, as JSON. */
  readonly usage: string;
}

/**
 * Test hooks, unset outside tests: called right after a job's finish (with its usage owed) was written
 * (`afterFinish`), and right after its usage was applied (`afterUsage`). A crash test kills the process in
 * them to prove that the minutes are recorded once whatever the crash point. And (`afterAudio`) right
 * after an attempt on a fleet wrote its audio file for ffmpeg, before decoding it: a process killed there
 * leaves the file (leftovers.ts).
 */
export const crashPoints: {
  afterFinish?: (jobId: string) => void;
  afterUsage?: (jobId: string) => void;
  afterAudio?: (jobId: string) => void;
} = {};

/** The usage (as JSON, for `usage_pending`) of a job of `seconds` of audio, finished today. */
export function minutesOwed(
  job: { account_id: string; key_id: string; custom_tag: string },
  product: 'speech_to_text' | 'speech_to_speech',
  seconds: number,
): string {
  const record: UsageRecord = {
    accountId: job.account_id,
    keyId: job.key_id,
    product,
    units: seconds / 60,
    customTag: job.custom_tag,
    day: utcDay(new Date()),
  };
  return JSON.stringify(record);
}

/** Applies a job's owed usage once (whoever calls, however often), then lets `settled` clear it. */
export async function settleUsage(
  context: ServiceContext,
  owed: OwedUsage,
  settled: (owed: OwedUsage) => void | Promise<void>,
): Promise<void> {
  await context.storage.applyUsageOnce(
    `voice/${owed.table}/${owed.id}/minutes`,
    JSON.parse(owed.usage) as UsageRecord,
  );
  crashPoints.afterUsage?.(owed.id);
  await settled(owed);
}

/** Embedded (`voice.sqlite`): clears a job's owed usage once applied. */
export function sqliteSettled(db: Database.Database, owed: OwedUsage): void {
  if (db.open) db.prepare(`UPDATE ${owed.table} SET usage_pending = NULL WHERE id = ?`).run(owed.id);
}

/** Embedded: applies the usage that jobs of `table` a crash left owed (their server's start). */
export async function settleSqliteOwed(
  context: ServiceContext,
  db: Database.Database,
  table: JobTable,
  logError: (error: unknown) => void,
): Promise<void> {
  const rows = db
    .prepare(`SELECT id, usage_pending AS usage FROM ${table} WHERE usage_pending IS NOT NULL`)
    .all() as { id: string; usage: string }[];
  for (const row of rows)
    await settleUsage(context, { table, ...row }, (owed) => sqliteSettled(db, owed)).catch(logError);
}

/**
 * Forgets the voice jobs' usage operation ids under `prefix` (`voice/`, or one table's
 * `voice/<table>/`) that nothing can apply again; how many. `oldestOwed` is the creation time of the
 * oldest job (of those tables) whose row still owes its minutes (`usage_pending`; none: undefined).
 *
 * Why that bound is safe. A job's id (`voice/<table>/<id>/minutes`) is applied only by `settleUsage`, for
 * a row whose `usage_pending` is set: by the attempt that wrote the finish, and by the recoveries. The
 * finish is written once (a done row is never queued again; on a fleet it is fenced by the attempt),
 * and `usage_pending` is cleared only after the usage was applied, never set again. So an id that can
 * still be applied again belongs to a row that owes its minutes, and it was recorded after that row was
 * created: every id recorded before the oldest such row belongs to a job that is settled for good. Voice
 * job rows do not expire (nothing removes them), so their age is not the bound; their debt is. A row
 * owing its minutes keeps its id however long the recovery takes (a storage failing for days).
 *
 * The margin (`USAGE_OPERATION_MARGIN_MS`, a day) covers the clocks: on a fleet `created_at` is the instance's
 * clock and `applied_at` the database's `now()`. And a job that finishes while the sweep runs records its
 * id after the bound was taken, so it is never older than the bound.
 *
 * An id is kept, so, about a day: one row of the spine's `usage_operations` (about 60 bytes) per finished
 * job.
 */
export async function pruneOperations(
  context: ServiceContext,
  prefix: string,
  oldestOwed: Date | undefined,
  now = new Date(),
): Promise<number> {
  return forgetUsageOperations(context.storage, prefix, oldestOwed, now);
}

/** Embedded: the creation time of the oldest job of `table` that owes its minutes; undefined: none. */
export function sqliteOldestOwed(db: Database.Database, table: JobTable): Date | undefined {
  const { oldest } = db
    .prepare(`SELECT MIN(created_at) AS oldest FROM ${table} WHERE usage_pending IS NOT NULL`)
    .get() as { oldest: string | null };
  return oldest === null ? undefined : new Date(oldest);
}

/**
 * Embedded: at each start of a job loop, after its recovery: forgets the ids of `table` that nothing can
 * apply again (`pruneOperations`).
 */
export async function pruneSqliteOperations(
  context: ServiceContext,
  db: Database.Database,
  table: JobTable,
  logError: (error: unknown) => void,
): Promise<void> {
  if (!db.open) return;
  await pruneOperations(context, `voice/${table}/`, sqliteOldestOwed(db, table)).catch(logError);
}
