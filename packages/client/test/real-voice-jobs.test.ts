/**
 * `voice.createJob` with a spoken-term collection and a glossary against the real server: real pocketsphinx
 * on speech made by Debian's flite (voice kal16), real Apertium.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../src/index.js';
import { startRealServer } from './real-server.js';

const real = await startRealServer();
afterAll(async () => {
  await real.close();
});

/**
 * Sentences from flite as one 16 kHz mono WAV (44-byte headers: one header with the summed sizes), with a
 * quarter second of silence between two, as a speaker leaves: run together, the recognizer heard the joint's
 * words differently whenever its 100 ms steps moved ("The file" as "File" or as "A final").
 */
function fliteWav(...sentences: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-client-voice-'));
  const wavs = sentences.map((text, i) => {
    const file = join(dir, `${i}.wav`);
    execFileSync('flite', ['-voice', 'kal16', '-t', text, '-o', file]);
    return readFileSync(file);
  });
  const header = Buffer.from(wavs[0]!.subarray(0, 44));
  const pause = Buffer.alloc((16_000 / 4) * 2);
  const data = Buffer.concat(wavs.flatMap((wav, i) => (i === 0 ? [] : [pause]).concat(wav.subarray(44))));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('voice jobs with spoken terms and a glossary (alpha)', () => {
  it('the transcript keeps the term as written and the translation follows the glossary', async () => {
    const client = real.client();
    const terms = await client.voice.createSpokenTerms({
      name: 'products',
      language: 'en',
      terms: ['Glossa'],
    });
    const glossary = await client.glossaries.create('files', [
      { sourceLang: 'en', targetLang: 'es', entries: { text: 'file\tarchivo', format: 'tsv' } },
    ]);
    const audio = fliteWav('We translate the site with Glossa every day.', 'The file is too large.');
    const { job_id: jobId } = await client.voice.createJob(audio, {
      sourceLanguage: 'en',
      targetLanguages: ['es'],
      fileName: 'speech.wav',
      spokenTermsId: terms.spoken_terms_id,
      glossaryId: glossary.glossary_id,
    });
    await vi.waitFor(async () => expect((await client.voice.getJob(jobId)).status).toBe('done'), {
      timeout: 40_000,
      interval: 250,
    });
    const result = await client.voice.getJobResult(jobId);
    expect(result.transcript).toBe('We translate the site with Glossa every day. The file is too large.');
    expect(result.translations[0]?.text).toMatch(/\barchivo\b/i);
    expect(result.translations[0]?.text).not.toMatch(/lima/i);

    const unknown = '00000000-0000-4000-8000-000000000000';
    const refused = client.voice.createJob(audio, {
      sourceLanguage: 'en',
      targetLanguages: ['es'],
      fileName: 'speech.wav',
      glossaryId: unknown,
    });
    await expect(refused).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('voice translation jobs at the public paths (alpha)', () => {
  it('translates a WAV file to Spanish text and subtitles, downloaded from the signed URLs', async () => {
    const client = real.client();
    const job = await client.voice.translateFile(fliteWav('I would like to buy a ticket to the city.'), {
      fileName: 'ticket.wav',
      contentType: 'audio/wav',
      sourceLanguage: 'en',
      targets: [
        { language: 'es', type: 'text/plain' },
        { language: 'es', type: 'application/x-subrip' },
      ],
      pollInterval: 100,
    });
    expect(job.results.map((result) => result.status)).toEqual(['complete', 'complete']);
    const text = (await client.voice.downloadTranslateResult(job.results[0]!)).toString('utf8');
    expect(text).toMatch(/comprar una entrada a la ciudad/);
    const subtitles = (await client.voice.downloadTranslateResult(job.results[1]!)).toString('utf8');
    expect(subtitles).toMatch(/^1\r?\n00:00:\d\d,\d{3} --> /);
    expect(await client.voice.getTranslateJob(job.job_id)).toMatchObject({
      product: 'voice',
      operation: 'translate',
    });
    await expect(client.voice.getTranslateJob('no-such-job')).rejects.toBeInstanceOf(NotFoundError);
  });
});
