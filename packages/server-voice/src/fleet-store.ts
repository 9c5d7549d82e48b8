/**
 * Voice on PostgreSQL, for a fleet (`databaseUrl`): spoken-term collections (`spoken_terms`), and the
 * records of both job interfaces (`/v3/voice/jobs`: `voice_jobs`; `/v1/jobs/voice/translate`:
 * `voice_translate_jobs`) with the uploaded audio (`bytea`), and the results of translation jobs
 * (`voice_translate_results`), so that every instance polls, uploads to and downloads from every job. The
 * columns are those of `voice.sqlite` (same types as text, so both backends share their row types). Own
 * migrations (`glossa_voice_schema`) on the spine's migration runner. The jobs themselves (claim, takeover,
 * status, result, minutes) run on the server's job runner (`context.jobs`, kinds in job-support.ts; the
 * records on either backend: records.ts); the job-side columns of the first migrations (owner, attempt,
 * boss_job, usage_pending, status of `voice_jobs`) are no longer written.
 */
import type { JobTransaction, ServiceContext } from '@glossa/server/feature';
import { migratePostgres, pgTransaction, ServiceError } from '@glossa/server/feature';
import pg from 'pg';
import type { JobRow, SpokenTermsRow, TranslateRow } from './rows.js';

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

const VOICE_COLUMNS = `id, account_id, key_id, custom_tag, status, source, targets, input_type, spoken_terms,
  glossary_id, error_message, result, created_at`;
const TRANSLATE_COLUMNS = `id, account_id, key_id, custom_tag, status, file_name, content_type, content_length,
  source_language, source_given, targets, results, created_at, updated_at`;

export type FleetVoiceStore = ReturnType<typeof createFleetVoiceStore>;
/** Queues a record's runner job in the record's transaction. */
type Submit = (transaction: JobTransaction) => Promise<unknown>;

export function createFleetVoiceStore(pool: pg.Pool) {
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
    /** Writes a record with its audio, handed over: `submit` queues its job in the same transaction. */
    async insertJob(row: JobRow, bytes: Buffer, submit: Submit): Promise<void> {
      await pgTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
             spoken_terms, glossary_id, created_at, upload)
           VALUES ($1, $2, $3, $4, 'done', $5, $6, $7, $8, $9, $10, $11)`,
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
        await submit(client);
      });
    },
    async findJob(id: string): Promise<JobRow | undefined> {
      const { rows } = await pool.query<JobRow>(`SELECT ${VOICE_COLUMNS} FROM voice_jobs WHERE id = $1`, [
        id,
      ]);
      return rows[0];
    },
    async audio(table: 'voice_jobs' | 'voice_translate_jobs', id: string): Promise<Buffer | undefined> {
      const { rows } = await pool.query<{ upload: Buffer | null }>(
        `SELECT upload FROM ${table} WHERE id = $1`,
        [id],
      );
      return rows[0]?.upload ?? undefined;
    },
    /**
     * Marks a job's record handed to the job runner (status `done`: from then on its state is the
     * runner's job's).
     */
    async handedOver(table: 'voice_jobs' | 'voice_translate_jobs', id: string): Promise<void> {
      await pool.query(`UPDATE ${table} SET status = 'done' WHERE id = $1`, [id]);
    },
    /**
     * Records not handed to the runner: written by a version that submitted after the record (a process
     * killed in between), or left waiting or running by the queue of a version before the runner.
     */
    async notHandedOver(
      table: 'voice_jobs' | 'voice_translate_jobs',
      waiting: string,
    ): Promise<(JobRow | TranslateRow)[]> {
      const { rows } = await pool.query<JobRow | TranslateRow>(
        `SELECT ${table === 'voice_jobs' ? VOICE_COLUMNS : TRANSLATE_COLUMNS} FROM ${table}
         WHERE status IN ($1, 'processing') ORDER BY created_at, id`,
        [waiting],
      );
      return rows;
    },
    /** A job's record, audio and results gone (the runner deleted the job, a while after it expired). */
    async forget(table: 'voice_jobs' | 'voice_translate_jobs', id: string): Promise<void> {
      await pool.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
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
    /**
     * Stores the audio of a pending job, handed over: `submit` queues its job in the same transaction;
     * false when it was uploaded meanwhile.
     */
    upload: (id: string, bytes: Buffer, results: string, submit: Submit): Promise<boolean> =>
      pgTransaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE voice_translate_jobs SET status = 'done', upload = $2, results = $3, updated_at = $4
           WHERE id = $1 AND status = 'pending'`,
          [id, bytes, results, new Date().toISOString()],
        );
        if (rowCount === 1) await submit(client);
        return rowCount === 1;
      }),
    /** Keeps result `index` of a job (an attempt redoing it writes the same bytes again). */
    async saveResult(id: string, index: number, bytes: Buffer): Promise<void> {
      await pool.query(
        `INSERT INTO voice_translate_results (job_id, idx, bytes) VALUES ($1, $2, $3)
         ON CONFLICT (job_id, idx) DO UPDATE SET bytes = EXCLUDED.bytes`,
        [id, index, bytes],
      );
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
         WHERE id = $1`,
        [id, index, new Date().toISOString()],
      );
    },
  };
}

/** Applies the voice migrations not applied yet (the spine's runner: one transaction each, locked). */
export function migrateVoice(pool: pg.Pool): Promise<void> {
  return migratePostgres(pool, 'glossa_voice_schema', POSTGRES_VOICE_MIGRATIONS);
}

// --- the fleet backend of a server ------------------------------------------------------------------

/** What the routes (jobs, spoken terms) use on a fleet: the store, once its migrations ran. */
export interface FleetVoice {
  store(): Promise<FleetVoiceStore>;
}

const fleets = new WeakMap<ServiceContext, FleetVoice>();

/**
 * Opens the fleet store of a server with `databaseUrl` (a pool, the migrations); the routes find it through
 * `fleetVoice(context)` at once and wait for its migrations. `close` ends the pool.
 */
export function openFleetVoice(
  url: string,
  context: ServiceContext,
  onError: (error: unknown) => void,
): { close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'glossa-voice' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  const ready = migrateVoice(pool).then(() => createFleetVoiceStore(pool));
  ready.catch(onError);
  fleets.set(context, {
    async store() {
      try {
        return await ready;
      } catch {
        throw new ServiceError(
          503,
          'Voice jobs and spoken terms are not available: their database does not answer.',
        );
      }
    },
  });
  return {
    async close() {
      // Still registered: a late request fails (503 or 500), it never falls back to this instance's SQLite.
      await ready.catch(() => undefined);
      await pool.end().catch(() => {});
    },
  };
}

/** The fleet backend of a server with `databaseUrl`; undefined on SQLite (the embedded default). */
export function fleetVoice(context: ServiceContext): FleetVoice | undefined {
  return fleets.get(context);
}
