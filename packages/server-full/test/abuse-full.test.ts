/**
 * Issue 31, "Done when", the inputs the spine's abuse test (packages/server/test/abuse.test.ts) cannot send:
 * with a free key on the full server (every feature package, as `glossa-server` runs it), the largest TMX
 * file an import takes (MAX_TMX_BYTES), a quality-evaluation job of the most and longest segments
 * (MAX_EVALUATION_SEGMENTS × MAX_EVALUATION_SEGMENT_LENGTH, both sides) and a synchronous evaluation whose one
 * segment fills its body limit (the input that was quadratic), all at once, while a normal client (a paid
 * key) translates short texts. The server stays up, its RSS (read from /proc: the server runs in a child
 * process) stays under its memory budget, every abusive request is answered with a success or a 429/503
 * that has Retry-After (no other 5xx), and the normal client gets no error. The normal client's latency
 * unloaded and loaded is printed; timing is not asserted.
 * (@glossa/protocol is read from its sources: this package does not depend on it.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_EVALUATION_SEGMENT_LENGTH,
  MAX_EVALUATION_SEGMENTS,
  MAX_TMX_BYTES,
} from '../../protocol/src/index.js';
import { FULL_MEMORY_BUDGET_MB } from '../src/index.js';

/**
 * The full server's default ceiling (`FULL_MEMORY_BUDGET_MB`, given to the child by default): not the spine's
 * 768 (a 1 GiB container), because its own RSS once its language tools have loaded (`/ready`) is already
 * 1.0–1.1 GB before any request (bench/warm-up-rss.ts has it part by part).
 */
const BUDGET_MB = FULL_MEMORY_BUDGET_MB;
/** The synchronous evaluation's body limit (the spine's default body limit, 1 MiB). */
const SYNC_BODY_BYTES = 1024 * 1024;
const here = new URL('.', import.meta.url).pathname;

interface Started {
  paid: string;
  free: string;
  freeKey: string;
  paidKey: string;
}

let child: ReturnType<typeof spawn>;
let started: Started;
let output = '';
let idleRssMb = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-abuse-full-'));

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions',
      '@glossa/source',
      join(here, 'abuse-full-server.ts'),
      JSON.stringify({ dataDir }),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started = await new Promise<Started>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\{.*\})\n/.exec(output);
      if (ready) resolve(JSON.parse(ready[1]!) as Started);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`the server exited before ready:\n${output}`)));
  });
  // The language tools load at start; `/ready` answers 503 until they have.
  for (;;) {
    const ready = await fetch(`${started.paid}/ready`).then((response) => response.status);
    if (ready === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  idleRssMb = rssMb();
}, 240_000);

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    child.kill('SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const rssMb = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
};

interface Answer {
  what: string;
  status: number;
  retryAfter: string | null;
  text: string;
}

async function call(what: string, base: string, key: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Service-Auth-Key ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    what,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    text: await response.text(),
  };
}

const WORDS =
  'the house files review open green tables paper river system window letter garden market travel evening'.split(
    ' ',
  );
/** English prose of exactly `length` characters (words and sentences, like a real page). */
function prose(length: number, seed: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = seed; size < length; i++) {
    const sentence = `${Array.from({ length: 12 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ')} ${i}. `;
    parts.push(sentence);
    size += sentence.length;
  }
  return parts.join('').slice(0, length);
}

/** A TMX file of as close to MAX_TMX_BYTES as whole units allow: long segments (4,000 characters a side). */
function largestTmx(): { content: Buffer; units: number } {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="abuse" creationtoolversion="1" segtype="paragraph" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body>\n';
  const tail = '</body></tmx>\n';
  const parts = [head];
  let bytes = head.length + tail.length;
  let units = 0;
  for (;;) {
    const unit = `<tu><tuv xml:lang="en"><seg>${prose(4000, units)}</seg></tuv><tuv xml:lang="es"><seg>${prose(4000, units + 1)} (es)</seg></tuv></tu>\n`;
    if (bytes + unit.length > MAX_TMX_BYTES) break;
    parts.push(unit);
    bytes += unit.length;
    units++;
  }
  parts.push(tail);
  return { content: Buffer.from(parts.join('')), units };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** A normal client's pace: 50 requests a second, half the server's default rate limit per key. */
const NORMAL_INTERVAL_MS = 20;

/** A normal client: short translations one after another until `until` resolves; their latencies. */
async function normalClient(until: Promise<unknown>): Promise<{ latencies: number[]; failures: number }> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  let failures = 0;
  let n = 0;
  while (!done) {
    const start = performance.now();
    const reply = await call('normal', started.paid, started.paidKey, '/v2/translate', {
      text: [`Hello world number ${n++}.`],
      target_lang: 'EN-XA',
    });
    const took = performance.now() - start;
    latencies.push(took);
    if (reply.status !== 200) failures++;
    if (took < NORMAL_INTERVAL_MS)
      await new Promise((resolve) => setTimeout(resolve, NORMAL_INTERVAL_MS - took));
  }
  return { latencies, failures };
}

/** Polls `path` (a job) until it is no longer running; every answer on the way is kept. */
async function poll(what: string, path: string, running: (answer: Answer) => boolean, answers: Answer[]) {
  for (;;) {
    const answer = await call(what, started.free, started.freeKey, path);
    answers.push(answer);
    if (!running(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function importLargestTmx(answers: Answer[]): Promise<Answer> {
  const { content, units } = largestTmx();
  const tooLarge = await call(
    'import over the limit',
    started.free,
    started.freeKey,
    '/v3/translation_memories/import',
    {
      source_file: { file_name: 'over.tmx', content_length: MAX_TMX_BYTES + 1 },
    },
  );
  expect(tooLarge.status, tooLarge.text).toBe(413);
  const created = await call('import', started.free, started.freeKey, '/v3/translation_memories/import', {
    source_file: { file_name: 'largest.tmx', content_length: content.length },
    parameters: { display_name: 'largest' },
  });
  answers.push(created);
  if (created.status !== 202) return created;
  const job = JSON.parse(created.text) as { job_id: string; upload_url: string };
  const upload = await fetch(job.upload_url, { method: 'PUT', body: content });
  answers.push({
    what: 'upload',
    status: upload.status,
    retryAfter: upload.headers.get('retry-after'),
    text: await upload.text(),
  });
  if (upload.status !== 204) return answers.at(-1)!;
  const done = await poll(
    'import job',
    `/v3/translation_memories/jobs/${job.job_id}`,
    (answer) => answer.status === 200 && /"status":"(processing|awaiting_input)"/.test(answer.text),
    answers,
  );
  if (done.status === 200) {
    const result = (JSON.parse(done.text) as { results: { status: string; segment_count?: number }[] })
      .results[0]!;
    expect(result.status, done.text).toBe('completed');
    console.log(`abuse-full: TMX of ${content.length} bytes, ${units} units imported`);
  }
  return done;
}

async function qualityJob(answers: Answer[]): Promise<Answer> {
  const segments = Array.from({ length: MAX_EVALUATION_SEGMENTS }, (_, i) => ({
    source: prose(MAX_EVALUATION_SEGMENT_LENGTH, i),
    target: prose(MAX_EVALUATION_SEGMENT_LENGTH, i + 1),
  }));
  const submitted = await call('quality job', started.free, started.freeKey, '/v1/quality-evaluation', {
    metadata: { source_language: 'en', target_language: 'es' },
    segments,
  });
  answers.push(submitted);
  if (submitted.status !== 202) return submitted;
  const { job_id } = JSON.parse(submitted.text) as { job_id: string };
  return poll('quality poll', `/v1/quality-evaluation/${job_id}`, (answer) => answer.status === 202, answers);
}

async function qualitySync(answers: Answer[]): Promise<Answer> {
  // One segment whose source and translation (English prose) fill the body limit between them.
  const side = Math.floor((SYNC_BODY_BYTES - 200) / 2);
  const answer = await call('quality sync', started.free, started.freeKey, '/v3/quality/evaluate', {
    source_lang: 'en',
    target_lang: 'es',
    segments: [{ source: prose(side, 0), translation: prose(side, 1) }],
  });
  answers.push(answer);
  return answer;
}

describe('abuse of the full server with a free key within the documented limits', () => {
  it('the largest TMX import and the longest quality segments, at once: up, under budget, answered', async () => {
    let peak = rssMb();
    const sampler = setInterval(() => {
      if (child.exitCode === null) peak = Math.max(peak, rssMb());
    }, 50);
    try {
      await normalClient(new Promise((resolve) => setTimeout(resolve, 1000)));
      const unloaded = await normalClient(new Promise((resolve) => setTimeout(resolve, 3000)));

      const answers: Answer[] = [];
      const started_ = performance.now();
      // GLOSSA_ABUSE_ONLY=tmx|job|sync sends one of the three (to see which one a failure comes from).
      const only = process.env.GLOSSA_ABUSE_ONLY;
      const abuse = Promise.all(
        (
          [
            ['tmx', importLargestTmx],
            ['job', qualityJob],
            ['sync', qualitySync],
          ] as const
        )
          .filter(([name]) => !only || only === name)
          .map(([, send]) => send(answers)),
      );
      const [loaded, finals] = await Promise.all([normalClient(abuse), abuse]);
      const abuseSeconds = (performance.now() - started_) / 1000;
      const after = await normalClient(new Promise((resolve) => setTimeout(resolve, 3000)));
      const quiet = [...unloaded.latencies, ...after.latencies];

      const figures = {
        idleRssMb,
        peakRssMb: Math.round(peak),
        budgetMb: BUDGET_MB,
        abuseSeconds,
        finals: finals.map((answer) => `${answer.what} ${answer.status}`).join(', '),
        unloaded: { n: quiet.length, p50: percentile(quiet, 50), p99: percentile(quiet, 99) },
        loaded: {
          n: loaded.latencies.length,
          p50: percentile(loaded.latencies, 50),
          p99: percentile(loaded.latencies, 99),
        },
      };
      console.log(
        `abuse-full: ${JSON.stringify(figures, (_, value) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value))}; p99 ratio ${(figures.loaded.p99 / figures.unloaded.p99).toFixed(1)}`,
      );
      if (process.env.GLOSSA_ABUSE_TRACE) console.log(output);
      expect(child.exitCode, output).toBeNull();
      for (const answer of answers) {
        if (answer.status < 300) continue;
        expect([429, 503], `${answer.what}: ${answer.status} ${answer.text}`).toContain(answer.status);
        expect(answer.retryAfter, answer.what).toMatch(/^\d+$/);
      }
      // Each abusive input was served (a job that completed, an evaluation that answered), not only refused.
      expect(finals.map((answer) => answer.status)).toEqual(finals.map(() => 200));
      expect(loaded.failures + unloaded.failures + after.failures).toBe(0);
      expect(peak).toBeLessThan(BUDGET_MB);
    } finally {
      clearInterval(sampler);
    }
  }, 400_000);
});
