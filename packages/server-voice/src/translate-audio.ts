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
import type { TranslateRow as Row } from './rows.js';
import { synthesize } from './speech.js';

export interface TargetSpec {
  language: string;
  type: string;
}
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
  job: Row,
  file: string,
  log: Log,
  hooks: TranslateHooks,
): Promise<Translated> {
  const targets = JSON.parse(job.targets) as TargetSpec[];
  const account = await context.storage.getAccount(job.account_id);
  if (!account) throw new Error('The account of this job no longer exists.');
  const caller: Caller = { account, key: { id: job.key_id, accountId: job.account_id } };
  const pcm = await decodeFile(file);
  const terms = await glossarySourceTerms(context, caller, job.source_language, undefined);
  const utterances: Utterance[] = (await hooks.recognize(pcm)).map(({ text, span }) => ({
    text: punctuate(text, { language: job.source_language, terms }),
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
          source: job.source_language,
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
