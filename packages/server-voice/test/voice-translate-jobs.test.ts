/**
 * Voice translation jobs at the public description's paths (`/v1/jobs/voice/translate`): created with the
 * file's metadata and targets, the audio uploaded to the signed upload URL, polled, each target's result
 * downloaded with its signature (text, SubRip subtitles, speech). Real ffmpeg, pocketsphinx, Apertium and
 * espeak-ng.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOB_TARGET_TYPES } from '../src/media.js';
import { startTestServer, type TestServer } from './helpers.js';
import { ffmpegConvert, fliteWav, type Message, probeAudio } from './voice-helpers.js';

const REFERENCE = 'please send me the report before the meeting tomorrow morning.';
let t: TestServer;
let wav: Buffer;
beforeAll(async () => {
  t = await startTestServer();
  wav = fliteWav(REFERENCE);
});
afterAll(async () => {
  await t?.close();
});

const create = (json: unknown, query = '', key?: string) =>
  t.call(`/v1/jobs/voice/translate${query}`, { json, ...(key === undefined ? {} : { key }) });

const sourceFile = (bytes: Buffer, content_type = 'audio/wav', name = 'speech.wav') => ({
  name,
  content_type,
  content_length: bytes.length,
});

const put = (url: string, bytes: Buffer, signature?: string) =>
  fetch(url, {
    method: 'PUT',
    headers: {
      'content-type': 'application/octet-stream',
      ...(signature === undefined ? {} : { authorization: `Service-Signature ${signature}` }),
    },
    body: bytes,
  });

async function finished(id: string, query = ''): Promise<Message> {
  let job: Message;
  await vi.waitFor(
    async () => {
      job = (await t.call(`/v1/jobs/voice/translate/${id}${query}`)).data;
      expect(job.results.every((r: Message) => r.status === 'complete' || r.status === 'failed')).toBe(true);
    },
    { timeout: 60_000, interval: 250 },
  );
  return job;
}

describe('voice translation jobs at /v1/jobs/voice/translate', () => {
  it('an empty or overlong upload stores nothing: the job still waits for its audio (400, 413, then 204)', async () => {
    const created = await create({
      source_file: sourceFile(wav),
      parameters: { source_language: 'en' },
      targets: [{ language: 'es', type: 'text/plain' }],
    });
    const { job_id, upload_url, signature } = created.data;
    const empty = await put(upload_url, Buffer.alloc(0), signature);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/empty/);
    // Sent chunked (no content-length): the announced size is enforced as the body streams in.
    const overlong = await fetch(upload_url, {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        authorization: `Service-Signature ${signature}`,
      },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(Buffer.concat([wav, Buffer.alloc(16)])));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(overlong.status).toBe(413);
    expect((await t.call(`/v1/jobs/voice/translate/${job_id}`)).data.results).toEqual([
      { status: 'pending' },
    ]);
    expect((await put(upload_url, wav, signature)).status).toBe(204);
    expect((await finished(job_id)).results[0].status).toBe('complete');
  });

  it('create → upload → poll → download: text, subtitles timed on the speech, Ogg Opus speech', async () => {
    const targets = [
      { language: 'es', type: 'text/plain' },
      { language: 'ES', type: 'application/x-subrip' },
      { language: 'es', type: 'audio/ogg;codecs=opus' },
    ];
    const created = await create({
      source_file: sourceFile(wav),
      parameters: { source_language: 'en' },
      targets,
    });
    expect(created.status).toBe(201);
    const { job_id, upload_url, signature } = created.data;
    expect(job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(upload_url).toBe(`${t.server.url}/v1/jobs/voice/translate/${job_id}/source`);
    expect(created.data.signed_upload_url).toBeUndefined();

    const pending = await t.call(`/v1/jobs/voice/translate/${job_id}`);
    expect(pending.status).toBe(200);
    expect(pending.data).toMatchObject({
      job_id,
      product: 'voice',
      operation: 'translate',
      source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: wav.length },
      parameters: { source_language: 'en' },
      targets: [
        { language: 'es', type: 'text/plain' },
        { language: 'es', type: 'application/x-subrip' },
        { language: 'es', type: 'audio/ogg;codecs=opus' },
      ],
      results: [{ status: 'pending' }, { status: 'pending' }, { status: 'pending' }],
    });

    // Without the signature, or with another job's: 403. With it: 204, once.
    expect((await put(upload_url, wav)).status).toBe(403);
    expect((await put(upload_url, wav, `${signature.split('.')[0]}.AAAA`)).status).toBe(403);
    expect((await put(upload_url, wav, signature)).status).toBe(204);
    expect((await put(upload_url, wav, signature)).status).toBe(409);

    const job = await finished(job_id);
    expect(job.results.map((r: Message) => r.status)).toEqual(['complete', 'complete', 'complete']);
    const download = async (index: number) => {
      const result = job.results[index];
      expect(result.download_url).toBe(`${t.server.url}/v1/jobs/voice/translate/${job_id}/results/${index}`);
      expect((await fetch(result.download_url)).status).toBe(403);
      const reply = await fetch(result.download_url, {
        headers: { authorization: `Service-Signature ${result.signature}` },
      });
      expect(reply.status).toBe(200);
      return { type: reply.headers.get('content-type'), bytes: Buffer.from(await reply.arrayBuffer()) };
    };
    const text = await download(0);
    expect(text.type).toBe('text/plain; charset=utf-8');
    expect(text.bytes.toString()).toMatch(/^[A-ZÁÉÍÓÚ¿¡].*\b(informe|reunión|mañana)\b.*[.?]\n$/s);

    const srt = (await download(1)).bytes.toString();
    const cues = srt.trim().split(/\n\n/);
    expect(cues.length).toBeGreaterThan(0);
    for (const [index, cue] of cues.entries()) {
      const [number, times, ...lines] = cue.split('\n');
      expect(number).toBe(String(index + 1));
      const match = /^(\d\d):(\d\d):(\d\d),(\d{3}) --> (\d\d):(\d\d):(\d\d),(\d{3})$/.exec(times ?? '');
      expect(match, times).not.toBeNull();
      const seconds = (parts: string[]) =>
        +parts[0]! * 3600 + +parts[1]! * 60 + +parts[2]! + +parts[3]! / 1000;
      const start = seconds(match!.slice(1, 5));
      const end = seconds(match!.slice(5, 9));
      expect(end).toBeGreaterThan(start);
      expect(end).toBeLessThanOrEqual((wav.length - 44) / 32_000 + 0.5);
      expect(lines.join(' ')).not.toBe('');
    }

    const speech = await download(2);
    expect(speech.type).toBe('audio/ogg;codecs=opus');
    expect(probeAudio(speech.bytes)).toMatchObject({ format: 'ogg', codec: 'opus', channels: 1 });
    expect(probeAudio(speech.bytes).seconds).toBeGreaterThan(1);

    const after = await t.call(`/v1/jobs/voice/translate/${job_id}`);
    expect(after.data.results.map((r: Message) => r.status)).toEqual([
      'downloaded',
      'downloaded',
      'downloaded',
    ]);
  }, 120_000);

  it('every declared source content type is decoded (made with ffmpeg from flite speech)', async () => {
    const makes: Record<string, [string[], string]> = {
      'audio/mpeg': [['-f', 'mp3', '-c:a', 'libmp3lame', '-b:a', '128k'], 'speech.mp3'],
      'audio/wav': [['-f', 'wav'], 'speech.wav'],
      'audio/ogg': [['-f', 'ogg', '-c:a', 'libopus', '-b:a', '32k'], 'speech.ogg'],
      'audio/flac': [['-f', 'flac'], 'speech.flac'],
      // M4A as written by most tools: the index (moov) at the end, so the file is read whole, not piped.
      'audio/mp4': [['-f', 'ipod', '-c:a', 'aac', '-b:a', '96k'], 'speech.m4a'],
      'audio/webm': [['-f', 'webm', '-c:a', 'libopus', '-b:a', '32k'], 'speech.webm'],
    };
    const jobs: [string, string][] = [];
    for (const [type, [args, name]] of Object.entries(makes)) {
      const bytes =
        type === 'audio/mp4' ? ffmpegToFile(wav, args) : ffmpegConvert(wav, ['-ac', '1', ...args]);
      const created = await create(
        { source_file: sourceFile(bytes, type, name), targets: [{ language: 'es', type: 'text/plain' }] },
        '?include=signed_url',
      );
      expect(created.status, type).toBe(201);
      // The signed URL needs no Authorization header.
      expect((await put(created.data.signed_upload_url, bytes)).status, type).toBe(204);
      jobs.push([type, created.data.job_id]);
    }
    for (const [type, id] of jobs) {
      const job = await finished(id, '?include=signed_url');
      expect(job.parameters, type).toEqual({});
      expect(job.results[0].status, `${type}: ${JSON.stringify(job.results[0])}`).toBe('complete');
      const text = await (await fetch(job.results[0].signed_download_url)).text();
      expect(text, type).toMatch(/\b(informe|reunión|mañana)\b/);
    }
  }, 180_000);

  it('refuses what the description does not declare (400), outsiders (403), others’ and unknown jobs (404)', async () => {
    const base = { source_file: sourceFile(wav), targets: [{ language: 'es', type: 'text/plain' }] };
    const refused = async (json: unknown) => {
      const reply = await create(json);
      expect(reply.status, JSON.stringify(json)).toBe(400);
      return reply.data.message as string;
    };
    expect(await refused({ ...base, targets: [{ language: 'es', type: 'audio/wav' }] })).toBe(
      '/targets/0/type: Value is not valid',
    );
    expect(
      await refused({ ...base, source_file: { ...base.source_file, content_type: 'audio/x-foo' } }),
    ).toMatch(/^\/source_file\/content_type: Value is not valid/);
    await refused({ ...base, targets: [] });
    await refused({ targets: base.targets });
    await refused({ ...base, source_file: { ...base.source_file, content_length: 0 } });
    await refused({ ...base, source_file: { ...base.source_file, content_length: 200 * 1024 * 1024 } });
    await refused({ ...base, parameters: { source_language: 'de' } });
    await refused({ ...base, targets: [{ language: 'xx', type: 'text/plain' }] });
    // Unknown parameters are ignored.
    expect((await create({ ...base, extra: 1 })).status).toBe(201);

    const outsider = await t.server.createAccount({ plan: 'paid' });
    expect((await create(base, '', outsider.key)).status).toBe(403);
    const mine = (await create(base)).data.job_id;
    const other = await t.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    expect((await t.call(`/v1/jobs/voice/translate/${mine}`, { key: other.key })).status).toBe(404);
    expect((await t.call('/v1/jobs/voice/translate/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.call('/v1/jobs/voice/translate/not-a-uuid')).status).toBe(404);
  });

  it('the result types are the 18 the description declares', () => {
    expect(Object.keys(JOB_TARGET_TYPES)).toHaveLength(18);
  });
});

/** ffmpeg to a seekable file (the mp4 muxer writes its index at the end), read back. */
function ffmpegToFile(audio: Buffer, args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-m4a-'));
  writeFileSync(join(dir, 'in.wav'), audio);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-i',
    join(dir, 'in.wav'),
    '-ac',
    '1',
    ...args,
    join(dir, 'out'),
  ]);
  const bytes = readFileSync(join(dir, 'out'));
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}
