import { once } from 'node:events';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  BadRequestError,
  GlossaClient,
  type GlossaError,
  JobFailedError,
  NotFoundError,
} from '../src/index.js';
import { startRealServer } from './real-server.js';

const real = await startRealServer();
const work = await mkdtemp(join(tmpdir(), 'glossa-client-docs-'));
afterAll(async () => {
  await real.close();
  await rm(work, { recursive: true, force: true });
});
beforeEach(() => {
  real.fetchCalls.count = 0;
});

async function failure(promise: Promise<unknown>): Promise<GlossaError> {
  try {
    await promise;
  } catch (error) {
    return error as GlossaError;
  }
  throw new Error('expected the call to fail');
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('text improvement against the real server', () => {
  it('keeps a correct sentence as it is, one improvement per text', async () => {
    const response = await real
      .client()
      .correctText(['The cat is black.', 'I like tea.'], { targetLang: 'en-US' });
    expect(response.improvements.map((improvement) => improvement.text)).toEqual([
      'The cat is black.',
      'I like tea.',
    ]);
  }, 120_000); // the first write call loads the server's spelling and grammar engines

  it('rephrases with a writing style, and refuses style and tone together before sending', async () => {
    const client = real.client();
    const response = await client.rephraseText('The cat is black.', {
      targetLang: 'en-US',
      writingStyle: 'business',
    });
    expect(response.improvements).toHaveLength(1);
    expect(response.improvements[0]?.text.length).toBeGreaterThan(0);
    real.fetchCalls.count = 0;
    await expect(
      client.rephraseText('x', { targetLang: 'en-US', writingStyle: 'business', tone: 'friendly' }),
    ).rejects.toThrow(new TypeError('Expected either `writingStyle` or `tone`, not both'));
    expect(real.fetchCalls.count).toBe(0);
  });

  it('is refused to a free-plan key', async () => {
    const { key } = await real.createAccount({ plan: 'free' });
    const free = new GlossaClient({ authKey: key, serverUrl: real.freeUrl });
    expect(await failure(free.rephraseText('Hello.', { targetLang: 'en-US' }))).toBeInstanceOf(
      AuthorizationError,
    );
  });
});

describe('language detection against the real server', () => {
  it('detects German and English sentences, in order', async () => {
    const response = await real
      .client()
      .detectLanguage([
        'Das Haus ist sehr groß und der Garten ist wunderschön.',
        'The house is very big and the garden is beautiful.',
      ]);
    expect(response.results).toEqual([
      { detection_status: 'success', detected_language: 'de' },
      { detection_status: 'success', detected_language: 'en' },
    ]);
  });

  it('is refused to an account outside the beta', async () => {
    const { key } = await real.createAccount({ plan: 'paid' });
    expect(await failure(real.client({ authKey: key }).detectLanguage('Hallo Welt'))).toBeInstanceOf(
      AuthorizationError,
    );
  });
});

describe('quality evaluation against the real server', () => {
  it('returns one issue list per segment, with spans inside the translation', async () => {
    const segments = [
      { source: 'Hello {name}!', translation: 'Hola!' },
      { source: 'Save', translation: 'Guardar' },
    ];
    const response = await real.client().evaluateQuality({ sourceLang: 'en', targetLang: 'es', segments });
    expect(response.segments).toHaveLength(2);
    response.segments.forEach((segment, index) => {
      const length = [...(segments[index]?.translation ?? '')].length;
      for (const issue of segment.issues) {
        expect(issue.start).toBeGreaterThanOrEqual(0);
        expect(issue.end).toBeLessThanOrEqual(length);
        expect(['minor', 'major', 'critical']).toContain(issue.severity);
      }
    });
  });

  it('runs a /v1 evaluation job to its report: a changed number is found on both sides', async () => {
    const client = real.client();
    const report = await client.runQualityEvaluation({
      sourceLang: 'en',
      targetLang: 'es',
      segments: [{ source: 'Keep 25 files.', target: 'Conserve 52 archivos.' }],
      pollInterval: 20,
    });
    expect(report.status).toBe('done');
    const [segment] = report.segments;
    const number = segment?.errors.find((error) => error.target_spans.some((span) => span.start === 9));
    expect(number?.source_spans).toEqual([{ start: 5, end: 7 }]);
    expect(number?.target_spans).toEqual([{ start: 9, end: 11 }]);
    expect(report.summary.overall_score).toBeLessThan(100);
    expect(await failure(client.getQualityEvaluation('6f1c2b3a-0000-4000-8000-000000000007'))).toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('documents against the real server', () => {
  it('translates a text file to en-XA and writes the output', async () => {
    const output = join(work, 'hello.en-XA.txt');
    const status = await real.client().translateDocument(Buffer.from('Hello world\n'), output, {
      targetLang: 'en-XA',
      sourceLang: 'en',
      fileName: 'hello.txt',
      pollInterval: 20,
    });
    expect(status.status).toBe('done');
    expect(await readFile(output, 'utf8')).toContain('[Ĥééļļöö ŵöööŕļð]');
  });

  it('downloads a result once; the second download is a 404', async () => {
    const client = real.client();
    const handle = await client.documents.upload(Buffer.from('Save\n'), {
      targetLang: 'en-XA',
      fileName: 'a.txt',
    });
    expect(handle.document_id).toMatch(/^[0-9a-f]{32}$/i);
    await client.documents.waitUntilDone(handle, { pollInterval: 20 });
    expect((await client.documents.download(handle)).toString('utf8')).toContain('[Šåṽéé]');
    expect(await failure(client.documents.download(handle))).toBeInstanceOf(NotFoundError);
  });

  it('leaves no output behind when the translation fails', async () => {
    const output = join(work, 'never.txt');
    const error = await failure(
      real
        .client()
        .translateDocument(Buffer.from('Hello\n'), output, { targetLang: 'xx-nope', fileName: 'a.txt' }),
    );
    // Refused at upload (400) or failed as a job: either way, no output file.
    expect(error instanceof BadRequestError || error instanceof JobFailedError).toBe(true);
    expect(await exists(output)).toBe(false);
  });
});

describe('voice against the real server', () => {
  it('requests a realtime session and opens its WebSocket with the token', async () => {
    const session = await real.client().voice.createSession({
      sourceMediaContentType: 'audio/ogg;codecs=opus',
      sourceLanguage: 'en',
      targetLanguages: ['es'],
    });
    expect(session.streaming_url).toMatch(/^wss?:\/\//);
    expect(session.token.length).toBeGreaterThan(0);
    expect(session.session_id.length).toBeGreaterThan(0);
    const socket = real.client().voice.connect(session);
    await once(socket, 'open');
    socket.close();
    await once(socket, 'close');
  });

  it('creates, reads, replaces and deletes a spoken-term collection', async () => {
    const client = real.client();
    const created = await client.voice.createSpokenTerms({
      name: 'Names',
      language: 'en',
      terms: ['Glossa'],
    });
    const id = created.spoken_terms_id;
    expect((await client.voice.getSpokenTerms(id)).terms).toEqual(['Glossa']);
    await client.voice.replaceSpokenTerms(id, {
      name: 'Names',
      language: 'en',
      terms: ['Glossa', 'Apertium'],
    });
    expect((await client.voice.listSpokenTerms()).find((item) => item.spoken_terms_id === id)?.terms).toEqual(
      ['Glossa', 'Apertium'],
    );
    await client.voice.deleteSpokenTerms(id);
    expect(await failure(client.voice.getSpokenTerms(id))).toBeInstanceOf(NotFoundError);
  });

  it('starts an asynchronous voice job and reads its status (alpha)', async () => {
    const client = real.client();
    const { job_id: jobId } = await client.voice.createJob(silentWav(0.5), {
      sourceLanguage: 'en',
      targetLanguages: ['es'],
      fileName: 'silence.wav',
    });
    expect(jobId.length).toBeGreaterThan(0);
    const job = await client.voice.getJob(jobId);
    expect(job.job_id).toBe(jobId);
    expect(['queued', 'processing', 'done', 'error']).toContain(job.status);
    const { key } = await real.createAccount({ plan: 'paid' });
    const outsider = real.client({ authKey: key });
    const options = { sourceLanguage: 'en', targetLanguages: ['es'], fileName: 'silence.wav' };
    expect(await failure(outsider.voice.createJob(silentWav(0.1), options))).toBeInstanceOf(
      AuthorizationError,
    );
  });
});

/** A mono 16 kHz 16-bit PCM WAV of silence. */
function silentWav(seconds: number): Buffer {
  const samples = Math.round(16_000 * seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2)]);
}
