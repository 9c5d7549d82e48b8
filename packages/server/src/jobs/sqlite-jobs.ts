/**
 * The job backend of the embedded default: the `jobs` table of `glossa.sqlite`, next to `usage` and
 * `usage_operations` so a state change and its usage commit in one transaction. One process owns the data
 * directory, so a job found running when the runner starts belonged to a process that is gone: it is queued
 * again and resumes from its checkpoint. Workers are loops in this process, woken by a submit and polling
 * for retries whose time has come. A job's files are files in the data directory (`sqlite-job-files.ts`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { CHARACTER_PRODUCTS } from '../storage/usage-record.js';
import {
  DEFERRED_UNTIL,
  type JobBackend,
  type JobFence,
  JobLimitExceeded,
  type JobRow,
  JobSuperseded,
  jobCrashPoints,
  type NewJob,
  type UsageCharge,
  usageOperationId,
} from './job-backend.js';
import { openJobFiles } from './sqlite-job-files.js';

export interface SqliteJobBackendOptions {
  /** Called after usage of a character product was applied (the storage's quota totals are stale). */
  readonly onCharacterUsage?: () => void;
  /** How often an idle worker looks for a job whose retry time has come, in ms (default 500). */
  readonly pollMs?: number;
  /** Where the jobs' files are (`sqlite-job-files.ts`): `<data dir>/jobs`. */
  readonly filesDir: string;
  /** How old a directory of no job must be before the sweep removes it, in ms (default 10 minutes). */
  readonly orphanFilesMs?: number;
}

export function createSqliteJobBackend(db: Database.Database, options: SqliteJobBackendOptions): JobBackend {
  const owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  const files = openJobFiles(options.filesDir);
  const sql = {
    insert: db.prepare(
      `INSERT INTO jobs (id, kind, account_id, status, input, run_after, expires_at, created_at, updated_at)
       VALUES (@id, @kind, @account, 'queued', @input, @runAfter, @expires, @now, @now)`,
    ),
    release: db.prepare(
      `UPDATE jobs SET run_after = @now, expires_at = NULL, updated_at = @now
       WHERE id = @id AND status = 'queued' AND run_after = @deferred AND expires_at > @now`,
    ),
    remove: db.prepare(`DELETE FROM jobs WHERE id = ? AND status IN ('completed', 'failed', 'cancelled')`),
    unfinished: db.prepare(
      `SELECT COUNT(*) AS n FROM jobs WHERE account_id = ? AND status IN ('queued', 'running')
       AND (expires_at IS NULL OR expires_at > ?)`,
    ),
    held: db.prepare(
      `SELECT COUNT(*) AS n FROM jobs WHERE account_id = ? AND kind = ? AND (expires_at IS NULL OR expires_at > ?)`,
    ),
    stored: db.prepare('SELECT id FROM jobs WHERE id IN (SELECT value FROM json_each(?))'),
    get: db.prepare('SELECT * FROM jobs WHERE id = ?'),
    next: db.prepare(
      `SELECT j.id FROM jobs j
       WHERE j.status = 'queued' AND j.run_after <= @now AND j.kind IN (SELECT value FROM json_each(@kinds))
         AND (SELECT COUNT(*) FROM jobs r WHERE r.account_id = j.account_id AND r.status = 'running') < @limit
       ORDER BY (SELECT MAX(s.claimed_at) FROM jobs s WHERE s.account_id = j.account_id) ASC NULLS FIRST,
         j.rowid
       LIMIT 1`,
    ),
    claim: db.prepare(
      `UPDATE jobs SET status = 'running', owner = @owner, attempt = attempt + 1, claimed_at = @now, updated_at = @now
       WHERE id = @id RETURNING *`,
    ),
    fenced: db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND attempt = ? AND status = 'running'`),
    running: db.prepare(`UPDATE jobs SET checkpoint = @checkpoint, updated_at = @now WHERE id = @id`),
    finished: db.prepare(
      `UPDATE jobs SET status = @status, result = @result, error = @error, failures = COALESCE(@failures, failures),
       owner = NULL, expires_at = @expires, updated_at = @now WHERE id = @id`,
    ),
    queued: db.prepare(
      `UPDATE jobs SET status = 'queued', owner = NULL, run_after = @runAfter, failures = @failures, error = @error,
       updated_at = @now WHERE id = @id`,
    ),
    cancel: db.prepare(
      `UPDATE jobs SET status = 'cancelled', owner = NULL, expires_at = ?, updated_at = ?
       WHERE id = ? AND status IN ('queued', 'running')`,
    ),
    count: db.prepare(
      `SELECT COUNT(*) AS n FROM jobs WHERE kind IN (SELECT value FROM json_each(?))
       AND status IN (SELECT value FROM json_each(?)) AND run_after <> ?`,
    ),
    orphans: db.prepare(
      `UPDATE jobs SET status = 'queued', owner = NULL, updated_at = ? WHERE status = 'running' AND owner <> ?`,
    ),
    expired: db.prepare('DELETE FROM jobs WHERE expires_at < ? RETURNING id'),
    oldest: db.prepare('SELECT MIN(created_at) AS at FROM jobs'),
    addOperation: db.prepare(
      'INSERT INTO usage_operations (id, applied_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ),
    addUsage: db.prepare(
      `INSERT INTO usage (account_id, key_id, product, day, custom_tag, units)
       VALUES (@accountId, @keyId, @product, @day, @customTag, @units)
       ON CONFLICT(account_id, day, product, key_id, custom_tag) DO UPDATE SET units = units + excluded.units`,
    ),
  };
  const applyUsage = (jobId: string, usage: readonly UsageCharge[], now: string) => {
    let characters = false;
    for (const { step, record } of usage) {
      if (sql.addOperation.run(usageOperationId(jobId, step), now).changes === 0) continue;
      sql.addUsage.run({
        accountId: record.accountId,
        keyId: record.keyId,
        product: record.product,
        day: record.day,
        customTag: record.customTag,
        units: record.units,
      });
      characters ||= CHARACTER_PRODUCTS.includes(record.product);
    }
    return characters;
  };
  const afterUsage = (characters: boolean) => {
    if (characters) options.onCharacterUsage?.();
  };

  /** The job inserted, its staged files made its own; the job of that id when there is one already. */
  const insert = db.transaction((job: NewJob, staged: string | undefined) => {
    const existing = sql.get.get(job.id) as JobRow | undefined;
    if (existing) return { row: existing, placed: false };
    const now = new Date().toISOString();
    if ((sql.unfinished.get(job.accountId, now) as { n: number }).n >= job.maxQueued)
      throw new JobLimitExceeded(job.maxQueued);
    if (
      job.maxPerAccount !== undefined &&
      (sql.held.get(job.accountId, job.kind, now) as { n: number }).n >= job.maxPerAccount
    )
      throw new JobLimitExceeded(job.maxPerAccount, job.kind);
    sql.insert.run({
      id: job.id,
      kind: job.kind,
      account: job.accountId,
      input: job.input,
      runAfter: job.releaseBy ? DEFERRED_UNTIL : now,
      expires: job.releaseBy ?? null,
      now,
    });
    if (staged) files.place(staged, job.id);
    return { row: sql.get.get(job.id) as JobRow, placed: true };
  });
  const fenced = (fence: JobFence) => {
    if (!sql.fenced.get(fence.id, fence.attempt)) throw new JobSuperseded(fence.id);
  };
  const claim = db.transaction((kinds: readonly string[], limit: number) => {
    const now = new Date().toISOString();
    const next = sql.next.get({ now, kinds: JSON.stringify(kinds), limit }) as { id: string } | undefined;
    return next && (sql.claim.get({ id: next.id, owner, now }) as JobRow);
  });
  const change = db.transaction((...[fence, next, usage]: Parameters<JobBackend['change']>) => {
    fenced(fence);
    const now = new Date().toISOString();
    if (next.status === 'running') sql.running.run({ id: fence.id, checkpoint: next.checkpoint, now });
    else if (next.status === 'queued')
      sql.queued.run({
        id: fence.id,
        runAfter: next.runAfter,
        failures: next.failures,
        error: next.error,
        now,
      });
    else
      sql.finished.run({
        id: fence.id,
        status: next.status,
        result: next.status === 'completed' ? next.result : null,
        error: next.status === 'failed' ? next.error : null,
        failures: next.status === 'failed' ? next.failures : null,
        expires: next.expiresAt,
        now,
      });
    return applyUsage(fence.id, usage, now);
  });
  const cancel = db.transaction((...[id, expiresAt, usage]: Parameters<JobBackend['cancel']>) => {
    const now = new Date().toISOString();
    const row = sql.get.get(id) as JobRow | undefined;
    if (!row || sql.cancel.run(expiresAt, now, id).changes === 0) return { row, characters: false };
    const characters = applyUsage(id, usage(row), now);
    return { row: sql.get.get(id) as JobRow, characters };
  });
  const sweep = db.transaction((deleteBefore: string) => {
    sql.orphans.run(new Date().toISOString(), owner);
    return (sql.expired.all(deleteBefore) as { id: string }[]).map((row) => files.detach(row.id));
  });
  const remove = db.transaction((id: string) =>
    sql.remove.run(id).changes === 0 ? undefined : files.detach(id),
  );
  const stored = (ids: string[]) =>
    new Set((sql.stored.all(JSON.stringify(ids)) as { id: string }[]).map((row) => row.id));

  return {
    owner,
    async insert(job) {
      const staged = await files.stage(job.files);
      if (staged) jobCrashPoints.filesStored?.(job.id);
      let placed = false;
      try {
        const inserted = insert.immediate(job, staged);
        placed = inserted.placed;
        return inserted.row;
      } finally {
        if (!placed) await files.discard(staged);
      }
    },
    readFile: (id, name) => files.read(id, name),
    streamFile: (id, name) => files.stream(id, name),
    async writeFile(fence, name, data) {
      const staged = await files.stageFile(fence.id, data);
      try {
        db.transaction(() => {
          fenced(fence);
          files.placeFile(staged, fence.id, name);
        }).immediate();
      } catch (error) {
        await files.discard(staged);
        throw error;
      }
    },
    takeFile: (id, name) => files.take(id, name),
    listFiles: (id) => files.list(id),
    async putFile(id, name, data) {
      if (!sql.get.get(id)) return false;
      files.placeFile(await files.stageFile(id, data), id, name);
      return true;
    },
    pruneFiles: (id, keep) => files.prune(id, keep),
    async release(id, released) {
      const staged = await files.stage(released);
      let placed = false;
      try {
        db.transaction(() => {
          const now = new Date().toISOString();
          placed = sql.release.run({ id, now, deferred: DEFERRED_UNTIL }).changes === 1;
          if (placed && staged) files.merge(staged, id);
        }).immediate();
        return placed;
      } finally {
        if (!placed) await files.discard(staged);
      }
    },
    async remove(id) {
      const removal = remove.immediate(id);
      await removal?.();
      return removal !== undefined;
    },
    async get(id) {
      return sql.get.get(id) as JobRow | undefined;
    },
    async claim(kinds, limit) {
      return kinds.length === 0 ? undefined : claim.immediate(kinds, limit);
    },
    async change(fence, next, usage) {
      afterUsage(change.immediate(fence, next, usage));
    },
    async cancel(id, expiresAt, usage) {
      const { row, characters } = cancel.immediate(id, expiresAt, usage);
      afterUsage(characters);
      return row;
    },
    async count(kinds, states) {
      return (sql.count.get(JSON.stringify(kinds), JSON.stringify(states), DEFERRED_UNTIL) as { n: number })
        .n;
    },
    async sweep(deleteBefore) {
      for (const removal of sweep.immediate(deleteBefore)) await removal();
      await files.removeOrphans(stored, Date.now() - (options.orphanFilesMs ?? 600_000));
    },
    async oldestJob() {
      const { at } = sql.oldest.get() as { at: string | null };
      return at === null ? undefined : new Date(at);
    },
    async deliver(concurrency, runNext) {
      let stopped = false;
      let wake: (() => void) | undefined;
      let idle: Promise<void> = Promise.resolve();
      const renewIdle = () => {
        idle = new Promise<void>((resolve) => {
          wake = resolve;
        });
      };
      renewIdle();
      const pollMs = options.pollMs ?? 500;
      const loop = async () => {
        while (!stopped) {
          let ran = false;
          try {
            ran = await runNext();
          } catch {
            // A claim that failed (the database busy): tried again after the pause.
          }
          if (ran || stopped) continue;
          const waiting = idle;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            void waiting.then(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
      };
      const loops = Array.from({ length: concurrency }, loop);
      return {
        notify() {
          const current = wake;
          renewIdle();
          current?.();
        },
        async stop() {
          stopped = true;
          wake?.();
          await Promise.allSettled(loops);
        },
      };
    },
    async close() {
      // The database is the storage's: closed with it.
    },
  };
}
