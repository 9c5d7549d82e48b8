/**
 * The records of both voice job interfaces and their files, on either backend: embedded (no `databaseUrl`)
 * `voice_jobs` / `voice_translate_jobs` in `voice.sqlite` with the audio and results under
 * `<dataDir>/voice-jobs/`; on a fleet, PostgreSQL (fleet-store.ts: record, audio and results, so any
 * instance serves every job). A record is what a job was asked (its request, a translation job's upload and
 * downloads); its state is the runner's job of the same id (job-support.ts).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobFailed, type JobTransaction, type ServiceContext } from '@glossa/server/feature';
import { fleetVoice } from './fleet-store.js';
import {
  type JobRow,
  jobDir,
  type TargetSpec,
  type TranscribeInput,
  type TranslateInput,
  type TranslateRow,
} from './rows.js';
import { voiceDatabase } from './spoken-terms.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Embedded: where a translation job's uploaded audio is kept. */
export const sourceFile = (context: ServiceContext, id: string) => join(jobDir(context), `${id}.source`);
const resultFile = (context: ServiceContext, id: string, index: number) =>
  join(jobDir(context), `${id}.result-${index}`);

/** The input of a `/v3/voice/jobs` job's runner job, from its record. */
export const transcribeInputOf = (row: JobRow): TranscribeInput => ({
  keyId: row.key_id,
  customTag: row.custom_tag,
  source: row.source,
  targets: JSON.parse(row.targets) as string[],
  inputType: row.input_type,
  spokenTerms: JSON.parse(row.spoken_terms) as string[],
  ...(row.glossary_id === null ? {} : { glossaryId: row.glossary_id }),
});

/** The input of a translation job's runner job, from its record. */
export const translateInputOf = (row: TranslateRow): TranslateInput => ({
  keyId: row.key_id,
  customTag: row.custom_tag,
  fileName: row.file_name,
  contentType: row.content_type,
  contentLength: row.content_length,
  source: row.source_language,
  sourceGiven: row.source_given === 1,
  targets: JSON.parse(row.targets) as TargetSpec[],
});

// --- /v3/voice/jobs -------------------------------------------------------------------------------------

/** The record of a `/v3/voice/jobs` job (any account's). */
export async function findJob(context: ServiceContext, id: string): Promise<JobRow | undefined> {
  const fleet = fleetVoice(context);
  if (fleet) return (await fleet.store()).findJob(id);
  return voiceDatabase(context).prepare('SELECT * FROM voice_jobs WHERE id = ?').get(id) as
    | JobRow
    | undefined;
}

/**
 * Writes a `/v3/voice/jobs` record with its audio and `submit`s its runner job: on a fleet in the record's
 * transaction (both commit, or neither); embedded after it (another file: a record whose submit a crash
 * lost is handed over at the next start), the record removed when `submit` throws.
 */
export async function insertJob(
  context: ServiceContext,
  row: JobRow,
  audio: Uint8Array,
  submit: (transaction?: JobTransaction) => Promise<unknown>,
): Promise<void> {
  const fleet = fleetVoice(context);
  if (fleet) return (await fleet.store()).insertJob(row, Buffer.from(audio), submit);
  mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
  writeFileSync(join(jobDir(context), row.id), audio);
  const db = voiceDatabase(context);
  db.prepare(
    `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
       spoken_terms, glossary_id, created_at)
     VALUES (@id, @account_id, @key_id, @custom_tag, 'queued', @source, @targets, @input_type,
       @spoken_terms, @glossary_id, @created_at)`,
  ).run(row);
  try {
    await submit();
  } catch (error) {
    db.prepare('DELETE FROM voice_jobs WHERE id = ?').run(row.id);
    rmSync(join(jobDir(context), row.id), { force: true });
    throw error;
  }
}

// --- /v1/jobs/voice/translate -----------------------------------------------------------------------------

/** The record of a translation job (any account's: the signed upload and download find it by id). */
export async function findTranslate(context: ServiceContext, id: string): Promise<TranslateRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const fleet = fleetVoice(context);
  if (fleet) return (await fleet.store()).findTranslate(id.toLowerCase());
  return voiceDatabase(context).prepare('SELECT * FROM voice_translate_jobs WHERE id = ?').get(id) as
    | TranslateRow
    | undefined;
}

/** Writes a translation job's record (`pending`: no audio yet). */
export async function insertTranslate(context: ServiceContext, row: TranslateRow): Promise<void> {
  const fleet = fleetVoice(context);
  if (fleet) return (await fleet.store()).insertTranslate(row);
  voiceDatabase(context)
    .prepare(
      `INSERT INTO voice_translate_jobs (id, account_id, key_id, custom_tag, status, file_name, content_type,
         content_length, source_language, source_given, targets, results, created_at, updated_at)
       VALUES (@id, @account_id, @key_id, @custom_tag, 'pending', @file_name, @content_type, @content_length,
         @source_language, @source_given, @targets, @results, @created_at, @updated_at)`,
    )
    .run(row);
}

/** Embedded: writes a record's status and results (an upload; a result marked downloaded). */
export function updateTranslate(
  context: ServiceContext,
  id: string,
  status: string,
  results: unknown[],
): void {
  const db = voiceDatabase(context);
  if (!db.open) return;
  db.prepare('UPDATE voice_translate_jobs SET status = ?, results = ?, updated_at = ? WHERE id = ?').run(
    status,
    JSON.stringify(results),
    new Date().toISOString(),
    id,
  );
}

/** Keeps result `index` of a translation job (an attempt redoing it writes the same bytes again). */
export async function saveResult(context: ServiceContext, id: string, index: number, bytes: Buffer) {
  const fleet = fleetVoice(context);
  if (fleet) await (await fleet.store()).saveResult(id, index, bytes);
  else writeFileSync(resultFile(context, id, index), bytes);
}

/**
 * Result `index` of a translation job, marked downloaded (embedded: `results`, the record's statuses with
 * this one downloaded); undefined when its bytes are gone.
 */
export async function downloadResult(
  context: ServiceContext,
  row: TranslateRow,
  index: number,
  results: unknown[],
): Promise<Buffer | undefined> {
  const fleet = fleetVoice(context);
  if (fleet) {
    const store = await fleet.store();
    const found = await store.result(row.id, index);
    if (found) await store.setDownloaded(row.id, index);
    return found;
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(resultFile(context, row.id, index));
  } catch {
    return undefined;
  }
  updateTranslate(context, row.id, row.status, results);
  return bytes;
}

// --- the audio of an attempt ----------------------------------------------------------------------------

/**
 * Runs `work` on the audio of job `id` as a file for ffmpeg. Embedded: the upload's own file (`embedded`,
 * under `jobDir`). On a fleet: the record's bytes, written for this attempt (`<id>.attempt-<n>`) and removed
 * after (a killed attempt's file goes when the job is deleted: `forgetJob`).
 */
export async function withAudio<T>(
  context: ServiceContext,
  table: 'voice_jobs' | 'voice_translate_jobs',
  id: string,
  attempt: number,
  embedded: string,
  work: (file: string) => Promise<T>,
): Promise<T> {
  const fleet = fleetVoice(context);
  if (!fleet) return work(join(jobDir(context), embedded));
  const bytes = await (await fleet.store()).audio(table, id);
  if (!bytes) throw new JobFailed('The audio of this job is gone.');
  const file = join(jobDir(context), `${id}.attempt-${attempt}`);
  mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
  writeFileSync(file, bytes, { mode: 0o600 });
  try {
    return await work(file);
  } finally {
    rmSync(file, { force: true });
  }
}
