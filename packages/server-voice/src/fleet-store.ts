/**
 * Voice on PostgreSQL, for a fleet (`databaseUrl`): spoken-term collections (`spoken_terms`), and the rows
 * of both job interfaces (`/v3/voice/jobs`:
 * `voice_jobs`; `/v1/jobs/voice/translate`: `voice_translate_jobs`) with the uploaded audio (`bytea`), and
 * the results of translation jobs (`voice_translate_results`), so that every instance polls, uploads to and
 * downloads from every job. The columns are those of `voice.sqlite` (same types as text, so both backends
 * share their row types), plus `owner` (the instance running the job: its lease, see fleet-queue.ts),
 * `attempt` (how many times a job claimed the row) and `upload`. Own migrations (`glossa_voice_schema`) on
 * the spine's runner. A job's row and its pg-boss job are written in one transaction; the job side (claim,
 * finish, fail, requeue) is fenced by the attempt that claimed the row, so a job taken over from a dead
 * instance finishes once (and its usage is recorded once: owed by the finish that wrote the row, applied
 * once, usage.ts).
 */
import type { ServiceContext } from '@glossa/server/feature';
import { migratePostgres, pgTransaction } from '@glossa/server/feature';
import type pg from 'pg';
import type { JobRow, SpokenTermsRow, TranslateRow } from './rows.js';
import type { OwedUsage } from './usage.js';

/** Applied in order, one transaction each. Append only. */
export const POSTGRES_VOICE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE voice_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    custom_tag TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'done', 'error')),
    source TEXT NOT NULL,
    targets TEXT NOT NULL,
    input_type TEXT NOT NULL,
    spoken_terms TEXT NOT NULL,
    glossary_id TEXT,
    error_message TEXT,
    result TEXT,
    created_at TEXT NOT NULL,
    owner TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    upload BYTEA
  );
  CREATE INDEX voice_jobs_owner ON voice_jobs(status, owner);
  CREATE TABLE voice_translate_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    custom_tag TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'uploaded', 'processing', 'done')),
    file_name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    content_length INTEGER NOT NULL,
    source_language TEXT NOT NULL,
    source_given INTEGER NOT NULL,
    targets TEXT NOT NULL,
    results TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    owner TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    upload BYTEA
  );
  CREATE INDEX voice_translate_jobs_owner ON voice_translate_jobs(status, owner);
  CREATE TABLE voice_translate_results (
    job_id TEXT NOT NULL REFERENCES voice_translate_jobs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    bytes BYTEA NOT NULL,
    PRIMARY KEY (job_id, idx)
  );
  `,
  // The pg-boss job last sent for a waiting row, and when: a job lost by pg-boss (its instance stopped as
  // it fetched it) is sent again (fleet-queue.ts, `resend`).
  `
  ALTER TABLE voice_jobs ADD COLUMN boss_job TEXT;
  ALTER TABLE voice_jobs ADD COLUMN queued_at TIMESTAMPTZ;
  ALTER TABLE voice_translate_jobs ADD COLUMN boss_job TEXT;
  ALTER TABLE voice_translate_jobs ADD COLUMN queued_at TIMESTAMPTZ;
  `,
  // Spoken-term collections (spoken-terms.ts), as in voice.sqlite: every instance reads every account's.
  `
  CREATE TABLE spoken_terms (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    terms TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX spoken_terms_account ON spoken_terms(account_id, created_at);
  `,
  // The usage a finished job owes until it is applied (usage.ts): written by the finish, cleared once
  // applied (once, by its operation id); every instance applies what an instance that died left.
  `
  ALTER TABLE voice_jobs ADD COLUMN usage_pending TEXT;
  ALTER TABLE voice_translate_jobs ADD COLUMN usage_pending TEXT;
  CREATE INDEX voice_jobs_usage_pending ON voice_jobs(id) WHERE usage_pending IS NOT NULL;
  CREATE INDEX voice_translate_jobs_usage_pending ON voice_translate_jobs(id)
    WHERE usage_pending IS NOT NULL;
  `,
];

/** The two kinds of job the queue carries: `/v3/voice/jobs` and `/v1/jobs/voice/translate`. */
export type VoiceJobKind = 'voice' | 'translate';

/** The pg-boss job of a row. */
export interface QueuedJob {
  readonly kind: VoiceJobKind;
  readonly id: string;
}

/** Runs statements on one client (a transaction), as pg-boss's `db` option wants them. */
export interface SqlRunner {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Sends a row's job (pg-boss), in the transaction that queued the row (`db`); the pg-boss job's id. */
export type Enqueue = (db: SqlRunner, job: QueuedJob) => Promise<string | null>;

/** A row that has waited for a while, with the pg-boss job last sent for it. */
export interface WaitingJob extends QueuedJob {
  readonly bossJob: string | null;
}

/** A row claimed by a job, with its attempt and upload. */
export type Claimed<R> = R & { readonly attempt: number; readonly upload: Buffer };

const VOICE_COLUMNS = `id, account_id, key_id, custom_tag, status, source, targets, input_type, spoken_terms,
  glossary_id, error_message, result, created_at`;
const TRANSLATE_COLUMNS = `id, account_id, key_id, custom_tag, status, file_name, content_type, content_length,
  source_language, source_given, targets, results, created_at, updated_at`;

/** Per kind: its table, the status a job waits in, and the status a claimed job has. */
const TABLES = {
  voice: { table: 'voice_jobs', waiting: 'queued' },
  translate: { table: 'voice_translate_jobs', waiting: 'uploaded' },
} as const;

export type FleetVoiceStore = ReturnType<typeof createFleetVoiceStore>;

export function createFleetVoiceStore(pool: pg.Pool, enqueue: Enqueue) {
  /** `work` in one transaction; `db` runs pg-boss's statements in it. */
  const transaction = <T>(work: (client: pg.PoolClient, db: SqlRunner) => Promise<T>): Promise<T> =>
    pgTransaction(pool, (client) =>
      work(client, { executeSql: (text, values) => client.query(text, values) }),
    );

  /** Sends the pg-boss job of a waiting row and writes its id on the row, in the transaction `client`. */
  async function send(client: pg.PoolClient, db: SqlRunner, job: QueuedJob): Promise<void> {
    const bossJob = await enqueue(db, job);
    await client.query(
      `UPDATE ${TABLES[job.kind].table} SET boss_job = $2, queued_at = now() WHERE id = $1`,
      [job.id, bossJob],
    );
  }

  /** Puts back in the queue, each with a new job, the rows `where` selects among processing ones. */
  async function requeueWhere(
    where: string,
    values: unknown[],
    lock?: (client: pg.PoolClient) => Promise<boolean>,
  ) {
    return transaction(async (client, db) => {
      if (lock && !(await lock(client))) return 0;
      let count = 0;
      for (const kind of ['voice', 'translate'] as const) {
        const { table, waiting } = TABLES[kind];
        const { rows } = await client.query<{ id: string }>(
          `UPDATE ${table} SET status = '${waiting}', owner = NULL
           WHERE status = 'processing' AND ${where} RETURNING id`,
          values,
        );
        for (const row of rows) await send(client, db, { kind, id: row.id });
        count += rows.length;
      }
      return count;
    });
  }

  return {
    // --- /v3/voice/spoken_terms (every query scoped by account) -------------------------------------
    async insertSpokenTerms(accountId: string, row: SpokenTermsRow): Promise<void> {
      await pool.query(
        'INSERT INTO spoken_terms (id, account_id, name, language, terms, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [row.id, accountId, row.name, row.language, row.terms, row.created_at],
      );
    },
    async listSpokenTerms(accountId: string): Promise<SpokenTermsRow[]> {
      const { rows } = await pool.query<SpokenTermsRow>(
        `SELECT id, name, language, terms, created_at FROM spoken_terms WHERE account_id = $1
         ORDER BY created_at, id`,
        [accountId],
      );
      return rows;
    },
    async findSpokenTerms(accountId: string, id: string): Promise<SpokenTermsRow | undefined> {
      const { rows } = await pool.query<SpokenTermsRow>(
        'SELECT id, name, language, terms, created_at FROM spoken_terms WHERE id = $1 AND account_id = $2',
        [id, accountId],
      );
      return rows[0];
    },
    async replaceSpokenTerms(
      accountId: string,
      id: string,
      fields: { name: string; language: string; terms: string },
    ): Promise<boolean> {
      const { rowCount } = await pool.query(
        'UPDATE spoken_terms SET name = $3, language = $4, terms = $5 WHERE id = $1 AND account_id = $2',
        [id, accountId, fields.name, fields.language, fields.terms],
      );
      return rowCount === 1;
    },
    async deleteSpokenTerms(accountId: string, id: string): Promise<boolean> {
      const { rowCount } = await pool.query('DELETE FROM spoken_terms WHERE id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      return rowCount === 1;
    },

    // --- /v3/voice/jobs -----------------------------------------------------------------------------
    async insertJob(row: JobRow, bytes: Buffer): Promise<void> {
      await transaction(async (client, db) => {
        await client.query(
          `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
             spoken_terms, glossary_id, created_at, upload)
           VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9, $10, $11)`,
          [
            row.id,
            row.account_id,
            row.key_id,
            row.custom_tag,
            row.source,
            row.targets,
            row.input_type,
            row.spoken_terms,
            row.glossary_id,
            row.created_at,
            bytes,
          ],
        );
        await send(client, db, { kind: 'voice', id: row.id });
      });
    },
    async findJob(accountId: string, id: string): Promise<JobRow | undefined> {
      const { rows } = await pool.query<JobRow>(
        `SELECT ${VOICE_COLUMNS} FROM voice_jobs WHERE id = $1 AND account_id = $2`,
        [id, accountId],
      );
      return rows[0];
    },
    /** Writes the result and the usage the job owes (usage.ts); false when the attempt no longer holds it. */
    async finishJob(job: Claimed<JobRow>, result: string, usage: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE voice_jobs SET status = 'done', result = $3, usage_pending = $4, upload = NULL, owner = NULL
         WHERE id = $1 AND attempt = $2 AND status = 'processing'`,
        [job.id, job.attempt, result, usage],
      );
      return rowCount === 1;
    },
    async failJob(job: Claimed<JobRow>, message: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE voice_jobs SET status = 'error', error_message = $3, upload = NULL, owner = NULL
         WHERE id = $1 AND attempt = $2 AND status = 'processing'`,
        [job.id, job.attempt, message],
      );
      return rowCount === 1;
    },

    // --- /v1/jobs/voice/translate -------------------------------------------------------------------
    async insertTranslate(row: TranslateRow): Promise<void> {
      await pool.query(
        `INSERT INTO voice_translate_jobs (id, account_id, key_id, custom_tag, status, file_name, content_type,
           content_length, source_language, source_given, targets, results, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          row.id,
          row.account_id,
          row.key_id,
          row.custom_tag,
          row.file_name,
          row.content_type,
          row.content_length,
          row.source_language,
          row.source_given,
          row.targets,
          row.results,
          row.created_at,
          row.updated_at,
        ],
      );
    },
    /** Any account's job: the signed upload and download find it by id (the signature is the check). */
    async findTranslate(id: string): Promise<TranslateRow | undefined> {
      const { rows } = await pool.query<TranslateRow>(
        `SELECT ${TRANSLATE_COLUMNS} FROM voice_translate_jobs WHERE id = $1`,
        [id],
      );
      return rows[0];
    },
    /** Stores the audio of a pending job and queues it; false when it was uploaded meanwhile. */
    async upload(id: string, bytes: Buffer, results: string): Promise<boolean> {
      return transaction(async (client, db) => {
        const { rowCount } = await client.query(
          `UPDATE voice_translate_jobs SET status = 'uploaded', upload = $2, results = $3, updated_at = $4
           WHERE id = $1 AND status = 'pending'`,
          [id, bytes, results, new Date().toISOString()],
        );
        if (rowCount !== 1) return false;
        await send(client, db, { kind: 'translate', id });
        return true;
      });
    },
    /** The per-target statuses, as the claimed attempt sees them (a poll on any instance reads them). */
    async setProcessing(job: Claimed<TranslateRow>, results: string): Promise<void> {
      await pool.query(
        `UPDATE voice_translate_jobs SET results = $3, updated_at = $4
         WHERE id = $1 AND attempt = $2 AND status = 'processing'`,
        [job.id, job.attempt, results, new Date().toISOString()],
      );
    },
    /**
     * Writes the results, their bytes and the usage the job owes (usage.ts; null: none); false when the
     * attempt no longer holds the job.
     */
    async finishTranslate(
      job: Claimed<TranslateRow>,
      results: string,
      outputs: readonly (Buffer | undefined)[],
      usage: string | null,
    ): Promise<boolean> {
      return transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE voice_translate_jobs SET status = 'done', results = $3, updated_at = $4, usage_pending = $5,
             upload = NULL, owner = NULL WHERE id = $1 AND attempt = $2 AND status = 'processing'`,
          [job.id, job.attempt, results, new Date().toISOString(), usage],
        );
        if (rowCount !== 1) return false;
        for (const [index, bytes] of outputs.entries()) {
          if (bytes === undefined) continue;
          await client.query('INSERT INTO voice_translate_results (job_id, idx, bytes) VALUES ($1, $2, $3)', [
            job.id,
            index,
            bytes,
          ]);
        }
        return true;
      });
    },
    async result(id: string, index: number): Promise<Buffer | undefined> {
      const { rows } = await pool.query<{ bytes: Buffer }>(
        'SELECT bytes FROM voice_translate_results WHERE job_id = $1 AND idx = $2',
        [id, index],
      );
      return rows[0]?.bytes;
    },
    /** Marks result `index` downloaded (one statement: concurrent downloads of other results keep theirs). */
    async setDownloaded(id: string, index: number): Promise<void> {
      await pool.query(
        `UPDATE voice_translate_jobs SET updated_at = $3,
           results = jsonb_set(results::jsonb, ARRAY[$2::text, 'status'], '"downloaded"')::text
         WHERE id = $1 AND status = 'done'`,
        [id, index, new Date().toISOString()],
      );
    },

    // --- the job side (fleet-queue.ts) --------------------------------------------------------------
    /** Takes a waiting job for `owner`: its row with the new attempt and its upload; undefined if not waiting. */
    async claim(job: QueuedJob, owner: string): Promise<Claimed<JobRow> | Claimed<TranslateRow> | undefined> {
      const { table, waiting } = TABLES[job.kind];
      const columns = job.kind === 'voice' ? VOICE_COLUMNS : TRANSLATE_COLUMNS;
      const { rows } = await pool.query(
        `UPDATE ${table} SET status = 'processing', owner = $2, attempt = attempt + 1
         WHERE id = $1 AND status = '${waiting}' RETURNING ${columns}, attempt, upload`,
        [job.id, owner],
      );
      return rows[0];
    },
    /** Puts an attempt's job back in the queue, with a new job (a closing instance). */
    requeue(job: QueuedJob, attempt: number): Promise<number> {
      return requeueWhere('id = $1 AND attempt = $2', [job.id, attempt]);
    },
    /** Instances (leases) that hold processing jobs, other than `self`. */
    async owners(self: string): Promise<string[]> {
      const { rows } = await pool.query<{ owner: string }>(
        `SELECT owner FROM voice_jobs WHERE status = 'processing' AND owner IS NOT NULL AND owner <> $1
         UNION SELECT owner FROM voice_translate_jobs
         WHERE status = 'processing' AND owner IS NOT NULL AND owner <> $1`,
        [self],
      );
      return rows.map((row) => row.owner);
    },
    /** Queues again the jobs `owner` was running when it died, only when its lease is free (`lock`). */
    takeOver(owner: string, lock: (client: pg.PoolClient) => Promise<boolean>): Promise<number> {
      return requeueWhere('owner = $1', [owner], lock);
    },
    /** Queues again this instance's processing jobs that none of its workers runs (a lost requeue). */
    orphans(owner: string, running: readonly string[]): Promise<number> {
      return requeueWhere('owner = $1 AND NOT (id = ANY($2::text[]))', [owner, running]);
    },
    /** Rows waiting for longer than `seconds` since their last pg-boss job was sent. */
    async waitingSince(seconds: number): Promise<WaitingJob[]> {
      const { rows } = await pool.query<{ kind: VoiceJobKind; id: string; boss_job: string | null }>(
        `SELECT 'voice' AS kind, id, boss_job FROM voice_jobs
         WHERE status = 'queued' AND queued_at < now() - make_interval(secs => $1)
         UNION ALL SELECT 'translate' AS kind, id, boss_job FROM voice_translate_jobs
         WHERE status = 'uploaded' AND queued_at < now() - make_interval(secs => $1)`,
        [seconds],
      );
      return rows.map((row) => ({ kind: row.kind, id: row.id, bossJob: row.boss_job }));
    },
    /** Sends a new pg-boss job for a row still waiting on `job.bossJob` (once, of concurrent callers). */
    async resend(job: WaitingJob): Promise<boolean> {
      const { table, waiting } = TABLES[job.kind];
      return transaction(async (client, db) => {
        const { rowCount } = await client.query(
          `UPDATE ${table} SET queued_at = now() WHERE id = $1 AND status = '${waiting}'
           AND boss_job IS NOT DISTINCT FROM $2`,
          [job.id, job.bossJob],
        );
        if (rowCount !== 1) return false;
        await send(client, db, job);
        return true;
      });
    },
    /** The usage finished jobs owe and have not applied (their instance died in between: usage.ts). */
    async owedUsage(): Promise<OwedUsage[]> {
      const { rows } = await pool.query<OwedUsage>(
        `SELECT 'voice_jobs' AS table, id, usage_pending AS usage FROM voice_jobs WHERE usage_pending IS NOT NULL
         UNION ALL SELECT 'voice_translate_jobs' AS table, id, usage_pending AS usage FROM voice_translate_jobs
         WHERE usage_pending IS NOT NULL`,
      );
      return rows;
    },
    /** The creation time of the oldest job (either table) that owes its minutes; undefined: none. */
    async oldestOwed(): Promise<Date | undefined> {
      const { rows } = await pool.query<{ oldest: string | null }>(
        `SELECT MIN(created_at) AS oldest FROM (
           SELECT created_at FROM voice_jobs WHERE usage_pending IS NOT NULL
           UNION ALL SELECT created_at FROM voice_translate_jobs WHERE usage_pending IS NOT NULL) AS owed`,
      );
      const oldest = rows[0]?.oldest ?? null;
      return oldest === null ? undefined : new Date(oldest);
    },
    /** Clears a job's owed usage once applied. */
    usageSettled: async (owed: OwedUsage): Promise<void> => {
      await pool.query(`UPDATE ${owed.table} SET usage_pending = NULL WHERE id = $1`, [owed.id]);
    },
    /** Jobs waiting and processing, on every instance. */
    async counts(): Promise<{ waiting: number; processing: number }> {
      const { rows } = await pool.query<{ waiting: string; processing: string }>(
        `SELECT
           (SELECT COUNT(*) FROM voice_jobs WHERE status = 'queued')
             + (SELECT COUNT(*) FROM voice_translate_jobs WHERE status = 'uploaded') AS waiting,
           (SELECT COUNT(*) FROM voice_jobs WHERE status = 'processing')
             + (SELECT COUNT(*) FROM voice_translate_jobs WHERE status = 'processing') AS processing`,
      );
      return { waiting: Number(rows[0]!.waiting), processing: Number(rows[0]!.processing) };
    },
  };
}

/** Applies the voice migrations not applied yet (the spine's runner: one transaction each, locked). */
export function migrateVoice(pool: pg.Pool): Promise<void> {
  return migratePostgres(pool, 'glossa_voice_schema', POSTGRES_VOICE_MIGRATIONS);
}

// --- the running fleet backend of a server ------------------------------------------------------------

/** What the routes (jobs, spoken terms) use on a fleet: the store, once PostgreSQL and pg-boss have started. */
export interface FleetVoice {
  store(): Promise<FleetVoiceStore>;
  /** Wakes this instance's idle worker (a job was queued). */
  notify(): void;
}

const fleets = new WeakMap<ServiceContext, FleetVoice>();

export function setFleetVoice(context: ServiceContext, jobs: FleetVoice | undefined): void {
  if (jobs) fleets.set(context, jobs);
  else fleets.delete(context);
}

/** The fleet backend of a server with `databaseUrl`; undefined on SQLite (the embedded default). */
export function fleetVoice(context: ServiceContext): FleetVoice | undefined {
  return fleets.get(context);
}
