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
import type { JobRow } from './rows.js';

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
  job: JobRow,
  pcm: Buffer,
  log: Log,
  recognize: (pcm: Buffer, words: readonly (readonly [string, string])[]) => Promise<{ text: string }[]>,
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
  const utterances = (await recognize(pcm, words)).map((utterance) =>
    punctuate(utterance.text, { language: job.source, terms }),
  );
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
  return { result: { transcript, translations }, seconds: secondsOfPcm(pcm) };
}
