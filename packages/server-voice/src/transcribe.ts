/**
 * The work of a `/v3/voice/jobs` job: its audio transcribed with its spoken terms (their pronunciations in
 * the recognizer's dictionary, their spelling and the glossary's cased terms in the punctuated transcript)
 * and translated into each target. Nothing is recorded here; the job kind (job-support.ts) returns the
 * result and charges the minutes.
 */
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { secondsOfPcm } from './chunks.js';
import { punctuate } from './punctuate.js';
import {
  checkVoiceGlossary,
  glossarySourceTerms,
  termPronunciations,
  translateTranscripts,
} from './resources.js';
import type { TranscribeInput } from './rows.js';

export interface TranscribeResult {
  readonly transcript: string;
  readonly translations: { target_language: string; text: string }[];
}
type Log = { warn(object: object, message: string): void };

/**
 * The transcript and translations of a job and the seconds of audio it had (nothing is recorded here).
 * `pcm`: the job's audio decoded to 16 kHz mono s16le; `recognize` gives its utterances (recognizeJob).
 */
export async function transcribeJob(
  context: ServiceContext,
  job: { readonly accountId: string; readonly input: TranscribeInput },
  pcm: Buffer,
  log: Log,
  recognize: (pcm: Buffer, words: readonly (readonly [string, string])[]) => Promise<{ text: string }[]>,
) {
  const { source, targets, glossaryId, spokenTerms } = job.input;
  const account = await context.storage.getAccount(job.accountId);
  if (!account) throw new Error('The account of this job no longer exists.');
  const caller: Caller = { account, key: { id: job.input.keyId, accountId: job.accountId } };
  const words = await termPronunciations(spokenTerms, (error) =>
    log.warn({ err: error }, 'spoken-term pronunciations failed'),
  );
  const terms = [...spokenTerms, ...(await glossarySourceTerms(context, caller, source, glossaryId))];
  const utterances = (await recognize(pcm, words)).map((utterance) =>
    punctuate(utterance.text, { language: source, terms }),
  );
  const transcript = utterances.join(' ');
  // Checked again: a glossary deleted (or its dictionary for a pair) since the job was queued fails it
  // rather than giving translations without it.
  if (glossaryId !== undefined) await checkVoiceGlossary(context, caller, source, targets, glossaryId);
  const translations = [];
  for (const target of targets) {
    const options = { source, target, formality: 'default', glossaryId } as const;
    const texts = await translateTranscripts(context, caller, options, utterances);
    translations.push({ target_language: target, text: texts.join(' ') });
  }
  return { result: { transcript, translations }, seconds: secondsOfPcm(pcm) };
}
