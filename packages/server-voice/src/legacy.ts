/**
 * The voice jobs of a version before job files, upgraded once at a server's start. Those versions kept a
 * record per job (`voice_jobs`, `voice_translate_jobs`: in `voice.sqlite` with the files under
 * `<data dir>/voice-jobs/`, or on a fleet in PostgreSQL with the audio as `bytea`). A record without its
 * runner job (written, not yet submitted: a process killed in between, or left by the queues before the
 * runner) is submitted as the job it is, its audio as the job file (a translation job still waiting for its
 * audio: deferred). Then the tables and files go. A record handed over already has its runner job, which
 * has no job files: unfinished, it fails ('The audio of this job is gone.'); a finished translation job's
 * results are gone (their download: 404). On a fleet, upgrade every instance together.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '@glossa/server/feature';
import type pg from 'pg';
import { fleetVoice } from './fleet-store.js';
import type { JobLog, VoiceQueues } from './job-support.js';
import { jobDir, type TargetSpec, type TranscribeInput, type TranslateInput } from './rows.js';
import { voiceDatabase } from './spoken-terms.js';

/** A `/v3/voice/jobs` record (`voice_jobs`). */
interface JobRow {
  id: string;
  account_id: string;
  key_id: string;
  custom_tag: string;
  source: string;
  targets: string;
  input_type: string;
  spoken_terms: string;
  glossary_id: string | null;
}

/** A `/v1/jobs/voice/translate` record (`voice_translate_jobs`). */
interface TranslateRow {
  id: string;
  account_id: string;
  key_id: string;
  custom_tag: string;
  status: string;
  file_name: string;
  content_type: string;
  content_length: number;
  source_language: string;
  source_given: number;
  targets: string;
  created_at: string;
}

interface Records {
  readonly jobs: JobRow[];
  /** Pending (no audio yet), or uploaded and not handed over. */
  readonly translations: TranslateRow[];
  audio(table: 'voice_jobs' | 'voice_translate_jobs', id: string): Promise<Uint8Array | undefined>;
  drop(): Promise<void>;
}

const WAITING = {
  jobs: `SELECT * FROM voice_jobs WHERE status IN ('queued', 'processing') ORDER BY created_at, id`,
  translations: `SELECT * FROM voice_translate_jobs WHERE status IN ('pending', 'uploaded', 'processing')
    ORDER BY created_at, id`,
};

/** The records of `voice.sqlite` (and their files), if its job tables are still there. */
function sqliteRecords(context: ServiceContext): Records | undefined {
  const db = voiceDatabase(context);
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'voice_jobs'`).get())
    return undefined;
  const read = (name: string) => {
    try {
      return readFileSync(join(jobDir(context), name));
    } catch {
      return undefined;
    }
  };
  return {
    jobs: db.prepare(WAITING.jobs).all() as JobRow[],
    translations: db.prepare(WAITING.translations).all() as TranslateRow[],
    audio: async (table, id) => read(table === 'voice_jobs' ? id : `${id}.source`),
    async drop() {
      db.exec('DROP TABLE IF EXISTS voice_jobs; DROP TABLE IF EXISTS voice_translate_jobs;');
      for (const name of existsSync(jobDir(context)) ? readdirSync(jobDir(context)) : [])
        if (!name.includes('.attempt-')) rmSync(join(jobDir(context), name), { force: true });
    },
  };
}

/** The records of a fleet's PostgreSQL, if its job tables are still there. */
async function postgresRecords(pool: pg.PoolClient): Promise<Records | undefined> {
  const { rows } = await pool.query(`SELECT to_regclass('voice_jobs') IS NOT NULL AS found`);
  if (!rows[0].found) return undefined;
  return {
    jobs: (await pool.query<JobRow>(WAITING.jobs)).rows,
    translations: (await pool.query<TranslateRow>(WAITING.translations)).rows,
    async audio(table, id) {
      const found = await pool.query<{ upload: Buffer | null }>(`SELECT upload FROM ${table} WHERE id = $1`, [
        id,
      ]);
      return found.rows[0]?.upload ?? undefined;
    },
    async drop() {
      await pool.query('DROP TABLE IF EXISTS voice_translate_results, voice_translate_jobs, voice_jobs');
    },
  };
}

const transcribeInput = (row: JobRow): TranscribeInput => ({
  keyId: row.key_id,
  customTag: row.custom_tag,
  source: row.source,
  targets: JSON.parse(row.targets) as string[],
  inputType: row.input_type,
  spokenTerms: JSON.parse(row.spoken_terms) as string[],
  ...(row.glossary_id === null ? {} : { glossaryId: row.glossary_id }),
});

const translateInput = (row: TranslateRow): TranslateInput => ({
  keyId: row.key_id,
  customTag: row.custom_tag,
  fileName: row.file_name,
  contentType: row.content_type,
  contentLength: row.content_length,
  source: row.source_language,
  sourceGiven: row.source_given === 1,
  targets: JSON.parse(row.targets) as TargetSpec[],
  createdAt: row.created_at,
});

/** Upgrades the records of `voice.sqlite`, or on a fleet of PostgreSQL (one instance at a time). */
export async function upgradeVoiceJobs(context: ServiceContext, queues: VoiceQueues, log: JobLog) {
  const fleet = fleetVoice(context);
  if (!fleet) return handOver(sqliteRecords(context), queues, log);
  const client = await (await fleet.store()).pool.connect();
  const lock = `hashtext('glossa_voice_legacy_jobs')`;
  try {
    // Instances starting together: one upgrades, the others then find no tables.
    await client.query(`SELECT pg_advisory_lock(${lock})`);
    await handOver(await postgresRecords(client), queues, log);
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${lock})`).catch(() => {});
    client.release();
  }
}

/**
 * Submits the records without a runner job (each under its own id: submitting again after a crash is a
 * no-op), then drops the records; a submit refused (the account's limit) is logged and its record dropped.
 */
async function handOver(records: Records | undefined, queues: VoiceQueues, log: JobLog): Promise<void> {
  if (!records) return;
  const notUpgraded = (id: string) => (error: unknown) =>
    log.error({ err: error, job: id }, 'a voice job could not be upgraded');
  for (const row of records.jobs) {
    const audio = await records.audio('voice_jobs', row.id);
    await queues.transcribe
      .submit(row.account_id, transcribeInput(row), { id: row.id, files: audio ? { audio } : {} })
      .catch(notUpgraded(row.id));
  }
  for (const row of records.translations) {
    const audio = row.status === 'pending' ? undefined : await records.audio('voice_translate_jobs', row.id);
    await queues.translate
      .submit(row.account_id, translateInput(row), {
        id: row.id,
        ...(row.status === 'pending' ? { deferred: true } : { files: audio ? { audio } : {} }),
      })
      .catch(notUpgraded(row.id));
  }
  await records.drop();
}
