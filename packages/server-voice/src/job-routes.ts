/**
 * The routes of asynchronous voice jobs at `/v3/voice/jobs` (alpha: accounts with the alpha flag, else 403):
 * an uploaded audio file is transcribed by the same recognizer as the real-time sessions and translated into
 * each target. A job may name a spoken-term collection and a glossary, checked and applied as on a real-time
 * session (`resources.ts`). The job is queued on the server's runner (kind `voice/transcribe`,
 * job-support.ts) with the audio as its job file; its status and result are the runner's.
 */
import {
  CreateVoiceJobFields,
  createRequestValidator,
  decodeForm,
  ENDPOINTS,
  type VoiceJobStatus,
} from '@glossa/protocol';
import type { ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  notFound,
  type Route,
  readUpload,
  ServiceError,
} from '@glossa/server/feature';
import { voiceQueues } from './job-support.js';
import { checkVoiceLanguages, checkVoiceResources } from './resources.js';
import { customTagOf } from './routes.js';
import type { TranscribeInput } from './rows.js';

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

/** A job of the caller's as the runner has it, in this interface's status (404: not theirs, or expired). */
async function ownJob(context: ServiceContext, accountId: string, id: string) {
  const job = await voiceQueues(context).transcribe.status(id, { accountId });
  if (!job) throw notFound(`Voice job ${id} not found.`);
  if (job.status === 'expired') throw notFound(`Voice job ${id} has expired.`);
  const status: VoiceJobStatus =
    job.status === 'running'
      ? 'processing'
      : job.status === 'completed'
        ? 'done'
        : job.status === 'failed' || job.status === 'cancelled'
          ? 'error'
          : 'queued';
  return { status, result: job.result, error: job.error };
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
      const input: TranscribeInput = {
        keyId: caller.key.id,
        customTag,
        source,
        targets,
        inputType,
        spokenTerms,
        ...(glossaryId === undefined ? {} : { glossaryId }),
      };
      const { id } = await voiceQueues(context).transcribe.submit(caller.account.id, input, {
        files: { audio: upload.file.bytes },
      });
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
