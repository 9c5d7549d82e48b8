/**
 * Asynchronous voice jobs (alpha: accounts with the alpha flag, else 403): an uploaded audio file is
 * transcribed by the same recognizer as the real-time sessions and translated into each target. A job may
 * name a spoken-term collection and a glossary, checked and applied as on a real-time session
 * (`resources.ts`).
 *
 * Embedded (no `databaseUrl`): jobs live in `voice.sqlite` (`voice_jobs`), the audio under
 * `<dataDir>/voice-jobs/` until processed; one job runs at a time; jobs left queued or processing by a
 * stopped server are run again when it starts. On a fleet (`databaseUrl`): rows and audio in PostgreSQL,
 * jobs on pg-boss shared by every instance (fleet-store.ts, fleet-queue.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateVoiceJobFields, createRequestValidator, decodeForm, ENDPOINTS } from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  notFound,
  type Route,
  readUpload,
  ServiceError,
} from '@glossa/server/feature';
import type { FastifyBaseLogger } from 'fastify';
import type { JobControl } from './fleet-queue.js';
import type { Claimed, FleetVoiceStore } from './fleet-store.js';
import { fleetVoice } from './fleet-store.js';
import { sweepSqliteLeftovers } from './leftovers.js';
import { decodeFile } from './media.js';
import { punctuate } from './punctuate.js';
import { type Recognizer, startRecognizer } from './recognizer.js';
import {
  checkVoiceGlossary,
  checkVoiceLanguages,
  checkVoiceResources,
  glossarySourceTerms,
  termPronunciations,
  translateTranscripts,
} from './resources.js';
import { customTagOf } from './routes.js';
import { type JobRow, jobDir } from './rows.js';
import { voiceDatabase } from './spoken-terms.js';
import {
  crashPoints,
  minutesOwed,
  pruneSqliteOperations,
  settleSqliteOwed,
  settleUsage,
  sqliteSettled,
} from './usage.js';

export const MAX_JOB_FILE_BYTES = 100 * 1024 * 1024;
/** File extensions a job (at the earlier path) accepts; the file is probed and decoded by ffmpeg. */
const JOB_TYPES: Record<string, string> = {
  wav: 'wav',
  flac: 'flac',
  ogg: 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  mp3: 'mp3',
  m4a: 'mp4',
  mp4: 'mp4',
  webm: 'webm',
  mka: 'matroska',
};

const validator = createRequestValidator(CreateVoiceJobFields);

const running = new WeakMap<ServiceContext, Promise<void>>();
const swept = new WeakSet<ServiceContext>();

/**
 * Embedded: removes, once per server and before its job loops start, the job files a killed process left
 * behind (leftovers.ts).
 */
export function sweepVoiceLeftovers(context: ServiceContext, log: JobLog): void {
  if (swept.has(context)) return;
  swept.add(context);
  try {
    const removed = sweepSqliteLeftovers(voiceDatabase(context), jobDir(context));
    if (removed.length > 0)
      log.warn({ files: removed.length }, 'voice job files left by a stopped server removed');
  } catch (error) {
    log.warn({ err: error }, 'sweep of voice job files failed');
  }
}

type JobLog = Pick<FastifyBaseLogger, 'error' | 'warn'>;

/** Runs queued jobs one after the other until none is left (idempotent while running). */
export function runVoiceJobs(context: ServiceContext, log: JobLog): void {
  const logError = (error: unknown) => log.error({ err: error }, 'voice job failed');
  if (running.has(context)) return;
  const loop = (async () => {
    const db = voiceDatabase(context);
    db.prepare("UPDATE voice_jobs SET status = 'queued' WHERE status = 'processing'").run();
    // Minutes a crash left owed by finished jobs (usage.ts).
    await settleSqliteOwed(context, db, 'voice_jobs', logError);
    await pruneSqliteOperations(context, db, 'voice_jobs', logError);
    for (;;) {
      if (!db.open) return;
      const job = db
        .prepare("SELECT * FROM voice_jobs WHERE status = 'queued' ORDER BY created_at, id LIMIT 1")
        .get() as JobRow | undefined;
      if (!job) return;
      db.prepare("UPDATE voice_jobs SET status = 'processing' WHERE id = ?").run(job.id);
      const file = join(jobDir(context), job.id);
      try {
        const { result, seconds } = await transcribeJob(context, job, await decodeFile(file), log);
        // Done and its minutes owed in one statement, then the minutes applied once (usage.ts). A server
        // closed meanwhile leaves the job to run again at its next start, billed then.
        if (db.open) {
          const usage = minutesOwed(job, 'speech_to_text', seconds);
          db.prepare("UPDATE voice_jobs SET status = 'done', result = ?, usage_pending = ? WHERE id = ?").run(
            JSON.stringify(result),
            usage,
            job.id,
          );
          crashPoints.afterFinish?.(job.id);
          await settleUsage(context, { table: 'voice_jobs', id: job.id, usage }, (owed) =>
            sqliteSettled(db, owed),
          ).catch(logError);
        }
      } catch (error) {
        const message = failureOf(error, logError);
        if (db.open)
          db.prepare("UPDATE voice_jobs SET status = 'error', error_message = ? WHERE id = ?").run(
            message,
            job.id,
          );
      }
      // A server closed mid-job keeps the file: the job runs again at the next start.
      if (db.open) rmSync(file, { force: true });
    }
  })();
  running.set(context, loop);
  loop.catch(logError).finally(() => running.delete(context));
}

/** The reason a job failed: the audio, or the job's account or glossary gone since; anything else is logged. */
function failureOf(error: unknown, logError: (error: unknown) => void): string {
  const known =
    error instanceof ServiceError || (error instanceof Error && /^The (audio|account)/.test(error.message));
  if (!known) logError(error);
  return known ? (error as Error).message : 'Transcription failed.';
}

/**
 * The transcript and translations of a job and the seconds of audio it had (nothing is recorded here).
 * `pcm`: the job's audio decoded to 16 kHz mono s16le; `track` is given the recognizer (to stop it).
 */
async function transcribeJob(
  context: ServiceContext,
  job: JobRow,
  pcm: Buffer,
  log: JobLog,
  track?: (recognizer: Recognizer) => void,
) {
  const account = await context.storage.getAccount(job.account_id);
  if (!account) throw new Error('The account of this job no longer exists.');
  const caller: Caller = { account, key: { id: job.key_id, accountId: job.account_id } };
  const targets = JSON.parse(job.targets) as string[];
  const glossaryId = job.glossary_id ?? undefined;
  const spokenTerms = JSON.parse(job.spoken_terms) as string[];
  const words = await termPronunciations(spokenTerms, (error) =>
    log.warn({ err: error }, 'spoken-term pronunciations failed'),
  );
  const terms = [...spokenTerms, ...(await glossarySourceTerms(context, caller, job.source, glossaryId))];
  const utterances: string[] = [];
  const recognizer = startRecognizer({
    inputType: null,
    words,
    onUtterance: (text) => utterances.push(punctuate(text, { language: job.source, terms })),
  });
  track?.(recognizer);
  recognizer.write(pcm);
  await recognizer.finish();
  const transcript = utterances.join(' ');
  // Checked again: a glossary deleted (or its dictionary for a pair) since the job was queued fails it
  // rather than giving translations without it.
  if (glossaryId !== undefined) await checkVoiceGlossary(context, caller, job.source, targets, glossaryId);
  const translations = [];
  for (const target of targets) {
    const options = { source: job.source, target, formality: 'default', glossaryId } as const;
    const texts = await translateTranscripts(context, caller, options, utterances);
    translations.push({ target_language: target, text: texts.join(' ') });
  }
  return { result: { transcript, translations }, seconds: recognizer.seconds };
}

/**
 * Runs a job claimed on a fleet (fleet-queue.ts): the audio from the row (through a temporary file for
 * ffmpeg), the result written only if this attempt still holds the job, and billed only then: once
 * (usage.ts).
 */
export function fleetVoiceJobHandler(context: ServiceContext, log: JobLog) {
  const logError = (error: unknown) => log.error({ err: error }, 'voice job failed');
  return async (job: Claimed<JobRow>, store: FleetVoiceStore, control: JobControl): Promise<void> => {
    const file = join(jobDir(context), `${job.id}.attempt-${job.attempt}`);
    try {
      mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
      writeFileSync(file, job.upload, { mode: 0o600 });
      crashPoints.afterAudio?.(job.id);
      const pcm = await decodeFile(file);
      rmSync(file, { force: true });
      const { result, seconds } = await transcribeJob(context, job, pcm, log, (r) => control.track(r));
      // Finished even when the instance is closing meanwhile (the requeue after it is then a no-op), its
      // minutes owed in the same statement, then applied once (usage.ts).
      const usage = minutesOwed(job, 'speech_to_text', seconds);
      if (await store.finishJob(job, JSON.stringify(result), usage)) {
        crashPoints.afterFinish?.(job.id);
        await settleUsage(context, { table: 'voice_jobs', id: job.id, usage }, store.usageSettled).catch(
          logError,
        );
      }
    } catch (error) {
      // A closing instance queues the job again (fleet-queue.ts) rather than failing it.
      if (control.closing) return;
      await store.failJob(job, failureOf(error, logError));
    } finally {
      rmSync(file, { force: true });
    }
  };
}

async function findJob(context: ServiceContext, accountId: string, id: string): Promise<JobRow> {
  const fleet = fleetVoice(context);
  const row = fleet
    ? await (await fleet.store()).findJob(accountId, id)
    : (voiceDatabase(context)
        .prepare('SELECT * FROM voice_jobs WHERE id = ? AND account_id = ?')
        .get(id, accountId) as JobRow | undefined);
  if (!row) throw notFound(`Voice job ${id} not found.`);
  return row;
}

export const VOICE_JOB_ROUTES: readonly Route[] = [
  {
    ...defineRoute(ENDPOINTS.createVoiceJob, async ({ request, caller, context }) => {
      const customTag = customTagOf(request);
      const upload = await readUpload(request, MAX_JOB_FILE_BYTES);
      if (!upload.file) throw badRequest("Parameter 'file' is required: send the audio as the 'file' part.");
      const fields = new URLSearchParams();
      for (const [name, value] of upload.fields) {
        if (name === 'target_languages')
          for (const part of value.split(',')) fields.append(name, part.trim());
        else fields.append(name, value);
      }
      const checked = validator.validate(decodeForm(fields, CreateVoiceJobFields));
      if (!checked.ok) throw badRequest(checked.message);
      const extension = /\.([a-z0-9]{1,5})$/i.exec(upload.file.name)?.[1]?.toLowerCase() ?? '';
      const inputType = JOB_TYPES[extension];
      if (!inputType) throw badRequest(`Audio files must end in .${Object.keys(JOB_TYPES).join(', .')}.`);
      const { source, targets } = checkVoiceLanguages(
        context,
        checked.value.source_language,
        checked.value.target_languages,
      );
      const { spokenTerms, glossaryId } = await checkVoiceResources(context, caller, {
        source,
        targets,
        spokenTermsId: checked.value.spoken_terms_id,
        glossaryId: checked.value.glossary_id,
      });
      const id = randomUUID();
      const fleet = fleetVoice(context);
      if (fleet) {
        await (await fleet.store()).insertJob(
          {
            id,
            account_id: caller.account.id,
            key_id: caller.key.id,
            custom_tag: customTag,
            status: 'queued',
            source,
            targets: JSON.stringify(targets),
            input_type: inputType,
            spoken_terms: JSON.stringify(spokenTerms),
            glossary_id: glossaryId ?? null,
            error_message: null,
            result: null,
            created_at: new Date().toISOString(),
          },
          Buffer.from(upload.file.bytes),
        );
        fleet.notify();
        return { job_id: id };
      }
      mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
      writeFileSync(join(jobDir(context), id), upload.file.bytes);
      voiceDatabase(context)
        .prepare(
          `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
             spoken_terms, glossary_id, created_at)
           VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          caller.account.id,
          caller.key.id,
          customTag,
          source,
          JSON.stringify(targets),
          inputType,
          JSON.stringify(spokenTerms),
          glossaryId ?? null,
          new Date().toISOString(),
        );
      runVoiceJobs(context, request.log);
      return { job_id: id };
    }),
    bodyLimit: MAX_JOB_FILE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceJob, async ({ params, caller, context }) => {
    const job = await findJob(context, caller.account.id, params.job_id);
    return {
      job_id: job.id,
      status: job.status,
      ...(job.error_message ? { error_message: job.error_message } : {}),
    };
  }),
  defineRoute(ENDPOINTS.getVoiceJobResult, async ({ params, caller, context }) => {
    const job = await findJob(context, caller.account.id, params.job_id);
    if (job.status === 'error')
      throw badRequest(`The voice job failed: ${job.error_message ?? 'unknown error'}`);
    if (job.status !== 'done' || !job.result)
      throw new ServiceError(503, `The voice job is ${job.status}; poll its status until done.`);
    return JSON.parse(job.result);
  }),
];
