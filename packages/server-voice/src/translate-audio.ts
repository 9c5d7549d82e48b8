/**
 * The work of a voice translation job (`/v1/jobs/voice/translate`): its audio transcribed, punctuated
 * (`punctuate.ts`), translated into each target and rendered as the target's type asks: the translation as
 * text, as SubRip subtitles timed on the speech, or spoken by espeak-ng in an audio type. Nothing is recorded
 * here; the job kind (job-support.ts) keeps the results and charges the minutes.
 */
import type { VoiceTranslateResultStatus } from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { type JobUtterance, secondsOfPcm } from './chunks.js';
import { decodeFile, encodeSpeech, JOB_TARGET_TYPES } from './media.js';
import { punctuate } from './punctuate.js';
import type { UtteranceSpan } from './recognizer.js';
import { glossarySourceTerms, translateTranscripts } from './resources.js';
import type { TranslateInput } from './rows.js';
import { synthesize } from './speech.js';

export interface StoredResult {
  status: VoiceTranslateResultStatus;
  error?: string;
  bytes?: number;
}
type Log = { warn(object: object, message: string): void };

interface Utterance {
  text: string;
  span: UtteranceSpan;
}

const srtTime = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
};

/** SubRip subtitles: one cue per utterance, timed on the speech. */
export function subrip(cues: readonly { text: string; span: UtteranceSpan }[]): string {
  return cues
    .filter((cue) => cue.text.trim())
    .map(
      (cue, index) => `${index + 1}\n${srtTime(cue.span.start)} --> ${srtTime(cue.span.end)}\n${cue.text}\n`,
    )
    .join('\n');
}

export interface Translated {
  results: StoredResult[];
  product: 'speech_to_text' | 'speech_to_speech';
  seconds: number;
}

export interface TranslateHooks {
  /** Keeps the bytes of target `index` (a failure here fails that target). */
  save(index: number, bytes: Buffer): Promise<void>;
  /** The utterances of the job's audio (`recognizeJob`: in chunks, from the job's checkpoint). */
  recognize(pcm: Buffer): Promise<JobUtterance[]>;
}

/**
 * Transcribes the audio in `file`, translates it into each target and renders each result (given to
 * `hooks.save`); one result per target, complete or failed. Throws when the whole job fails (the audio, the
 * account). Nothing is recorded here.
 */
export async function translateAudio(
  context: ServiceContext,
  job: { readonly id: string; readonly accountId: string; readonly input: TranslateInput },
  file: string,
  log: Log,
  hooks: TranslateHooks,
): Promise<Translated> {
  const { source, targets } = job.input;
  const account = await context.storage.getAccount(job.accountId);
  if (!account) throw new Error('The account of this job no longer exists.');
  const caller: Caller = { account, key: { id: job.input.keyId, accountId: job.accountId } };
  const pcm = await decodeFile(file);
  const terms = await glossarySourceTerms(context, caller, source, undefined);
  const utterances: Utterance[] = (await hooks.recognize(pcm)).map(({ text, span }) => ({
    text: punctuate(text, { language: source, terms }),
    span,
  }));
  let spoken = false;
  const results: StoredResult[] = [];
  for (const [index, target] of targets.entries()) {
    try {
      const texts = await translateTranscripts(
        context,
        caller,
        {
          source,
          target: target.language,
          formality: 'default',
          glossaryId: undefined,
        },
        utterances.map((utterance) => utterance.text),
      );
      const kind = JOB_TARGET_TYPES[target.type]!;
      let bytes: Buffer;
      if (kind === 'text') bytes = Buffer.from(texts.length ? `${texts.join(' ')}\n` : '');
      else if (kind === 'subrip')
        bytes = Buffer.from(
          subrip(utterances.map((utterance, i) => ({ text: texts[i] ?? '', span: utterance.span }))),
        );
      else {
        spoken = true;
        const text = texts.join(' ').trim();
        bytes = await encodeSpeech(await synthesize(text || ' ', target.language), kind);
      }
      await hooks.save(index, bytes);
      results[index] = { status: 'complete', bytes: bytes.length };
    } catch (error) {
      log.warn({ err: error, job: job.id, target: index }, 'voice translation target failed');
      results[index] = { status: 'failed', error: `Processing failed: ${(error as Error).message}` };
    }
  }
  return { results, product: spoken ? 'speech_to_speech' : 'speech_to_text', seconds: secondsOfPcm(pcm) };
}
