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
 */
import type { ServiceContext } from '@glossa/server/feature';
import { utcDay } from '@glossa/server/feature';
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
 * them to prove that the minutes are recorded once whatever the crash point.
 */
export const crashPoints: {
  afterFinish?: (jobId: string) => void;
  afterUsage?: (jobId: string) => void;
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
