/**
 * The routes of asynchronous voice jobs at `/v3/voice/jobs` (alpha: accounts with the alpha flag, else 403):
 * an uploaded audio file is transcribed by the same recognizer as the real-time sessions and translated into
 * each target. A job may name a spoken-term collection and a glossary, checked and applied as on a real-time
 * session (`resources.ts`). The record is written (records.ts) and the job queued on the server's runner
 * (kind `voice/transcribe`, job-support.ts); its status and result are the runner's.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateVoiceJobFields,
  createRequestValidator,
  decodeForm,
  ENDPOINTS,
  type VoiceJobStatus,
} from '@glossa/protocol';
import type { JobInfo, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  notFound,
  type Route,
  readUpload,
  ServiceError,
} from '@glossa/server/feature';
import { submitVoiceJob, voiceQueues } from './job-support.js';
import { findJob, insertJob } from './records.js';
import { checkVoiceLanguages, checkVoiceResources } from './resources.js';
import { customTagOf } from './routes.js';
import type { JobRow } from './rows.js';
import type { TranscribeResult } from './transcribe.js';

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

/** A `/v3/voice/jobs` job as the runner has it (undefined: its submit was lost); 404 once expired. */
async function transcribeState(
  context: ServiceContext,
  row: JobRow,
): Promise<{ status: VoiceJobStatus; result?: TranscribeResult | undefined; error?: string | undefined }> {
  const job: Pick<JobInfo<unknown, unknown, TranscribeResult>, 'status' | 'result' | 'error'> | undefined =
    (await voiceQueues(context).transcribe.status(row.id)) ??
    // A record finished by the queue of a version before the runner.
    (row.result
      ? { status: 'completed', result: JSON.parse(row.result), error: undefined }
      : row.status === 'error'
        ? { status: 'failed', result: undefined, error: row.error_message ?? undefined }
        : undefined);
  if (job?.status === 'expired') throw notFound(`Voice job ${row.id} has expired.`);
  const status: VoiceJobStatus =
    job?.status === 'running'
      ? 'processing'
      : job?.status === 'completed'
        ? 'done'
        : job?.status === 'failed' || job?.status === 'cancelled'
          ? 'error'
          : 'queued';
  return { status, result: job?.result, error: job?.error };
}

/** A job of the caller's as the runner has it (404: not the caller's, or expired). */
async function ownJob(context: ServiceContext, accountId: string, id: string) {
  const row = await findJob(context, id);
  if (!row || row.account_id !== accountId) throw notFound(`Voice job ${id} not found.`);
  return transcribeState(context, row);
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
      const row: JobRow = {
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
        created_at: new Date().toISOString(),
      };
      await insertJob(context, row, upload.file.bytes, (transaction) =>
        submitVoiceJob(context, { kind: 'transcribe', row }, transaction),
      );
      voiceQueues(context).transcribe.wake();
      return { job_id: id };
    }),
    bodyLimit: MAX_JOB_FILE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceJob, async ({ params, caller, context }) => {
    const job = await ownJob(context, caller.account.id, params.job_id);
    return {
      job_id: params.job_id,
      status: job.status,
      ...(job.status === 'error' ? { error_message: job.error ?? 'Transcription failed.' } : {}),
    };
  }),
  defineRoute(ENDPOINTS.getVoiceJobResult, async ({ params, caller, context }) => {
    const job = await ownJob(context, caller.account.id, params.job_id);
    const status = job.status;
    if (status === 'error') throw badRequest(`The voice job failed: ${job.error ?? 'unknown error'}`);
    if (status !== 'done' || !job.result)
      throw new ServiceError(503, `The voice job is ${status}; poll its status until done.`);
    return job.result;
  }),
];
