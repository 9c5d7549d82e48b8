/**
 * Quality-evaluation jobs run on worker threads (src/quality/pool.ts), not on the server's event loop. While
 * a job at the input limits runs (500 segments of 10,000 characters: tens of seconds of checks), `/ready`
 * keeps answering; the reports are those of the checks run in-process, byte for byte; a thread that fails
 * fails its job with a report in the interface's shape and the next job gets a new thread; closing the
 * server stops a running job at once, and the job runs again at the next start. Reports are stored
 * gzip-compressed and answered as stored; one stored before that is still answered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type QualityRequest } from '../src/quality/evaluate.js';
import { DEFAULT_QUALITY_OPTIONS } from '../src/quality/options.js';
import { startEvaluationPool } from '../src/quality/pool.js';
import { type Reply, startTestServer, storageFor, type TestServer } from './helpers.js';
import { probeReady } from './probe-ready.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

/**
 * `count` segments of 10,000 characters whose target words all hold numbers the source does not have (each
 * a Major mistranslation): about 50 ms of checks per segment on an idle core, 160 KB of report.
 */
function numberedSegments(count: number): { source: string; target: string }[] {
  return Array.from({ length: count }, (_, segment) => ({
    source: `The file ${segment} is saved. `.repeat(400).slice(0, 10_000),
    target: Array.from({ length: 1000 }, (_, word) => `palabrx${segment}q${word}z`)
      .join(' ')
      .slice(0, 10_000),
  }));
}

const job = (target_language: string, segments: { source: string; target: string }[]) => ({
  metadata: { source_language: 'en', target_language },
  segments,
});

/** A job's body as the jobs store it. */
const requestOf = (body: ReturnType<typeof job>): QualityRequest => ({
  sourceLang: 'en',
  targetLang: body.metadata.target_language,
  segments: body.segments.map(({ source, target }) => ({ source, translation: target })),
});

/** What the checks give in-process for the same job (the main thread's Hunspell, this thread's nspell). */
const inProcess = (id: string, body: ReturnType<typeof job>) => evaluate(id, requestOf(body));

/** Polls until the job is no longer processing. */
async function result(server: TestServer, pollUrl: string, timeoutMs = 240_000): Promise<Reply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await server.call(pollUrl);
    if (reply.status !== 202) return reply;
    if (Date.now() > deadline) throw new Error(`${pollUrl} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until the server's gauges say one job is running. */
async function untilRunning(server: TestServer): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!/^glossa_quality_jobs_running 1$/m.test((await server.call('/metrics', { key: null })).text)) {
    if (Date.now() > deadline) throw new Error('the job did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('quality-evaluation jobs on worker threads', () => {
  it('report what the checks give in-process, byte for byte (Hunspell, nspell, tags, numbers)', async () => {
    const bodies = [
      job('es', [
        {
          source: 'Click <b>Save</b> to keep 25 files.',
          target: 'Haga clic en Guardar para conservar 52 archivos.',
        },
        { source: '😀 Open the file now.', target: '😀 Abra el arhcivo ahora.' },
        { source: 'Write to help@example.org today, {name}.', target: 'Escriba hoy, {nombre}.' },
        { source: 'Open the file.', target: 'Open the file.' },
      ]),
      job('en-GB', [
        { source: 'Öffnen Sie die Farbe.', target: 'Open the color settings and teh file.' },
        { source: 'Speichern Sie 3 Dateien.', target: ' Save 3 files files.' },
      ]),
      job('de', [{ source: 'Save your work now.', target: 'Speichern Sie Ihre Arbiet jetzt' }]),
    ];
    const pool = startEvaluationPool();
    try {
      for (const body of bodies) {
        const created = await t.call('/v1/quality-evaluation', { json: body });
        expect(created.status).toBe(202);
        const done = await result(t, created.data.poll_url);
        expect(done.status).toBe(200);
        expect(done.data.segments.flatMap((segment: { errors: unknown[] }) => segment.errors)).not.toEqual(
          [],
        );
        const expected = await inProcess(created.data.job_id, body);
        // The answer, on either backend: the report as the thread wrote it, gzip-compressed to a client that
        // accepts it (fetch does, and decompresses it), as is to one that does not.
        expect(done.text).toBe(JSON.stringify(expected));
        expect(done.headers.get('content-encoding')).toBe('gzip');
        const plain = await t.call(created.data.poll_url, { headers: { 'accept-encoding': 'identity' } });
        expect(plain.headers.get('content-encoding')).toBeNull();
        expect(plain.text).toBe(done.text);
        expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
        // The thread's report itself, byte for byte.
        const threaded = await pool.evaluate(created.data.job_id, requestOf(body));
        expect(Buffer.from(threaded!.json).toString()).toBe(JSON.stringify(expected));
      }
    } finally {
      await pool.close();
    }
    // Three jobs, two pools' threads loading their dictionaries, the checks again in-process: 30 s was not
    // enough at a load average of 50.
  }, 180_000);

  it('stores the report gzip-compressed, as the job file `report`', async () => {
    const created = await t.call('/v1/quality-evaluation', {
      json: job('es', [{ source: 'Keep 25 files.', target: 'Conserve 52 archivos.' }]),
    });
    const done = await result(t, created.data.poll_url);
    const { databaseUrl } = await storageFor(t.dataDir);
    let stored: Buffer;
    if (databaseUrl) {
      const database = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      const { rows } = await database
        .query(
          `SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) AS data FROM job_files f
           JOIN job_file_chunks c ON c.file_id = f.file_id WHERE f.job_id = $1 AND f.name = 'report'`,
          [created.data.job_id],
        )
        .finally(() => database.end());
      stored = rows[0].data;
    } else stored = readFileSync(join(t.dataDir, 'jobs', created.data.job_id, 'report'));
    expect(gunzipSync(stored).toString()).toBe(done.text);
  });

  it('keeps /ready answering while a job at the input limits runs (not waiting for it)', async () => {
    const body = job('es', numberedSegments(500));
    const created = await t.call('/v1/quality-evaluation', { json: body });
    expect(created.status).toBe(202);
    // /ready from another process while the job runs; its state from the gauges, until nothing runs or waits.
    const started = performance.now();
    const prober = probeReady(`${t.server.url}/ready`);
    await prober.first;
    for (;;) {
      const metrics = (await t.call('/metrics', { key: null })).text;
      if (/^glossa_quality_jobs_queued 0$/m.test(metrics) && /^glossa_quality_jobs_running 0$/m.test(metrics))
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const latencies = await prober.stop();
    const jobMs = performance.now() - started;
    const worst = Math.max(...latencies);
    // On the event loop the first /ready waited for the whole job (about 30 s): here each answers at once.
    // Bounded relative to the job, not in milliseconds: a loaded machine slows every answer (1.8 s at load 50).
    expect(worst, `slowest /ready of ${latencies.length} during a ${jobMs.toFixed(0)} ms job`).toBeLessThan(
      jobMs / 5,
    );
    expect(latencies.length, `probes during a ${jobMs.toFixed(0)} ms job`).toBeGreaterThan(10);

    const done = await result(t, created.data.poll_url);
    expect(done.status).toBe(200);
    expect(done.data.status).toBe('done');
    expect(done.data.segments).toHaveLength(500);
    // The first and the last segment as the checks give them in-process (segments are checked one by one).
    const ends = job('es', [body.segments[0]!, body.segments[499]!]);
    const expected = (await inProcess(created.data.job_id, ends)) as { segments: { errors: unknown[] }[] };
    expect(done.data.segments[0].errors).toEqual(expected.segments[0]!.errors);
    expect(done.data.segments[499].errors).toEqual(expected.segments[1]!.errors);
    // The summary counts every error of the segments.
    const counts = done.data.summary.granular_counts as Record<
      string,
      Record<string, Record<string, number>>
    >;
    const counted = Object.values(counts)
      .flatMap((bySubType) => Object.values(bySubType).flatMap((bySeverity) => Object.values(bySeverity)))
      .reduce((sum, count) => sum + count, 0);
    const errors = done.data.segments.reduce(
      (sum: number, s: { errors: unknown[] }) => sum + s.errors.length,
      0,
    );
    expect(counted).toBe(errors);
    expect(counts.Accuracy!.Mistranslation!.Major).toBeGreaterThan(400_000);
  }, 300_000);

  it('a thread that fails (out of memory) fails its job with an evaluation_failed report; the next job gets a new thread', async () => {
    // Threads of 48 MB of heap: a small job fits (it needs about 16 MB), one of 500 segments of 10,000 characters
    // does not (it needs more than 128 MB). At 16 MB the small job itself ran out of memory now and then.
    const pool = startEvaluationPool(DEFAULT_QUALITY_OPTIONS, { maxOldGenerationSizeMb: 48 });
    try {
      const segments = numberedSegments(500).map(({ source, target }) => ({ source, translation: target }));
      const failed = await pool.evaluate('big', { sourceLang: 'en', targetLang: 'es', segments });
      expect(failed?.status).toBe('error');
      expect(JSON.parse(Buffer.from(failed!.json).toString())).toEqual({
        job_id: 'big',
        status: 'error',
        error: {
          code: 'evaluation_failed',
          message:
            'The evaluation failed: Worker terminated due to reaching memory limit: JS heap out of memory',
        },
      });
      const small = { source: 'Keep 25 files.', translation: 'Conserve 52 archivos.' };
      const next = await pool.evaluate('small', { sourceLang: 'en', targetLang: 'es', segments: [small] });
      expect(next?.status).toBe('done');
      expect(Buffer.from(next!.json).toString()).toBe(
        JSON.stringify(await evaluate('small', { sourceLang: 'en', targetLang: 'es', segments: [small] })),
      );
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('closing the server stops a running job at once; it runs again at the next start', async () => {
    const first = await startTestServer();
    const { dataDir } = first;
    let second: TestServer | undefined;
    try {
      const created = await first.call('/v1/quality-evaluation', { json: job('es', numberedSegments(60)) });
      expect(created.status).toBe(202);
      await untilRunning(first);
      const closing = performance.now();
      await first.server.close();
      const closeMs = performance.now() - closing;

      const restarted = performance.now();
      second = await startTestServer({ dataDir });
      const done = await result(second, created.data.poll_url);
      const rerunMs = performance.now() - restarted;
      expect(done.status).toBe(200);
      expect(done.data.status).toBe('done');
      expect(done.data.summary.granular_counts.Accuracy).toEqual({ Mistranslation: { Major: 57_840 } });
      // Waiting for the job would have taken about as long as running it again.
      expect(
        closeMs,
        `close ${closeMs.toFixed(0)} ms, job run again in ${rerunMs.toFixed(0)} ms`,
      ).toBeLessThan(rerunMs / 3);
    } finally {
      await (second ?? first).close();
    }
  }, 240_000);
});
