/**
 * Where the event loop's time goes when a quality-evaluation job at the input limits is submitted (500
 * segments of 2 × 10,000 characters: 10 MB of JSON), step by step, with the server's own code for each:
 *
 * - the spine's JSON body parser (packages/server/src/http/body.ts): UTF-8 decoding (fatal) and JSON.parse;
 * - the spine's validation of the body against the endpoint's schema (`createRequestValidator`, as app.ts);
 * - the route's own walk (jobs.ts: languages, `{source, target}` → `{source, translation}`);
 * - the SQLite records (sqlite-records.ts): JSON.stringify of the request, the row's insert, then the job's read
 *   of the request (service.ts, on the runner: the record is only read, the runner's own `jobs` row is what
 *   a claim updates) and its way to the worker thread; as JSON text (before) and gzip-compressed (now);
 *
 * then the whole submission over HTTP to a real server (SQLite), with the event loop's delay (max) meanwhile.
 * Each step runs `RUNS` times; min / median / max in ms. Run: npx tsx --conditions @glossa/source bench/quality-parse.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serialize } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { canonicalLanguage, createRequestValidator, QualityEvaluationRequest } from '@glossa/protocol';
import { startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { languageToolsFeature } from '../src/index.js';

const RUNS = 7;
const segments = Array.from({ length: 500 }, (_, segment) => ({
  source: `The file ${segment} is saved. `.repeat(400).slice(0, 10_000),
  target: Array.from({ length: 1000 }, (_, word) => `palabrx${segment}q${word}z`)
    .join(' ')
    .slice(0, 10_000),
}));
const text = JSON.stringify({ metadata: { source_language: 'en', target_language: 'es' }, segments });
const bytes = Buffer.from(text);

function time(name: string, step: () => unknown): void {
  const ms: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const from = performance.now();
    step();
    ms.push(performance.now() - from);
  }
  ms.sort((a, b) => a - b);
  console.log(`| ${name} | ${ms[0]!.toFixed(0)} / ${ms[RUNS >> 1]!.toFixed(0)} / ${ms.at(-1)!.toFixed(0)} |`);
}

console.log(`body: ${(bytes.length / 1e6).toFixed(1)} MB; ${RUNS} runs each\n`);
console.log('| step (on the event loop) | min / median / max ms |');
console.log('|---|---|');
const utf8 = new TextDecoder('utf-8', { fatal: true });
time('spine: UTF-8 decode (fatal)', () => utf8.decode(bytes));
time('spine: JSON.parse', () => JSON.parse(text));
const validator = createRequestValidator(QualityEvaluationRequest);
const parsed = () => JSON.parse(text) as QualityEvaluationRequest;
const bodies = Array.from({ length: RUNS }, parsed);
let run = 0;
time('spine: schema validation', () => {
  const result = validator.validate(bodies[run++ % RUNS]);
  if (!result.ok) throw new Error(result.message);
});
const body = parsed();
const request = () => ({
  sourceLang: canonicalLanguage(body.metadata.source_language),
  targetLang: canonicalLanguage(body.metadata.target_language),
  segments: body.segments.map(({ source, target }) => ({ source, translation: target })),
});
time('route: languages and segments walk', request);
const stored = JSON.stringify(request());
time('store: JSON.stringify of the request', () => JSON.stringify(request()));
const dir = mkdtempSync(join(tmpdir(), 'glossa-quality-parse-'));
const db = new Database(join(dir, 'steps.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
// The records' table as it was before the request became a job file (issue 32), measured for comparison.
db.exec(`CREATE TABLE quality_jobs (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, status TEXT NOT NULL,
  request TEXT, request_gzip BLOB, created_at INTEGER NOT NULL)`);
const compressed = gzipSync(stored);
console.log(
  `| (the request: ${(stored.length / 1e6).toFixed(1)} MB of JSON, ${(compressed.length / 1e6).toFixed(2)} MB gzip-compressed on libuv's pool) | |`,
);
// Before: the request stored as JSON text. Now: gzip-compressed (migration 3), read by the worker thread.
for (const [name, column, value] of [
  ['before (JSON text)', 'request', stored],
  ['now (gzip)', 'request_gzip', compressed],
] as const) {
  const insert = db.prepare(
    `INSERT INTO quality_jobs (id, account_id, status, ${column}, created_at) VALUES (?, 'a', 'queued', ?, ?)`,
  );
  let row = 0;
  time(`store, ${name}: SQLite insert of the row`, () => insert.run(`${name}${row++}`, value, Date.now()));
  // What follows the answer: the runner claims the job (its small `jobs` row, not this record), and the
  // job's attempt (service.ts) reads the request from the record, then posts it to the worker thread.
  const read = db.prepare<[string], { request: unknown }>(
    `SELECT ${column} AS request FROM quality_jobs WHERE id = ? AND status IN ('queued', 'running')`,
  );
  row = 0;
  let claimed: unknown;
  time(`job, ${name}: SELECT of the request`, () => {
    claimed = read.get(`${name}${row++}`)!.request;
  });
  if (column === 'request') {
    time(`job, ${name}: JSON.parse of the stored request`, () => JSON.parse(stored));
    const parsedRequest = JSON.parse(stored);
    time(`job, ${name}: structured clone (as postMessage)`, () => serialize(parsedRequest));
  } else time(`job, ${name}: structured clone (as postMessage)`, () => serialize(claimed));
}
db.close();

// The whole submission over HTTP. The job's evaluation (afterwards, on a worker thread) is not measured: a
// time limit of 0.1 s ends it at once, so that it does not take the cores from the next submission.
const server = await startServer({
  dataDir: dir,
  ...BENCH_SERVER_OPTIONS,
  features: [languageToolsFeature({ quality: { evaluationTimeoutSeconds: 0.1 } })],
});
const key = (await server.createAccount({ plan: 'paid', qualityAlpha: true })).key;
const headers = { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' };
const bodyFile = join(dir, 'body.json');
writeFileSync(bodyFile, text);
const delays: number[] = [];
const totals: number[] = [];
for (let submission = 0; submission < 3; submission++) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const from = performance.now();
  // From another process (curl), so that sending the body is not on this event loop.
  const curl = spawn(
    'curl',
    [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      '--data-binary',
      `@${bodyFile}`,
      `${server.url}/v1/quality-evaluation`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let status = '';
  curl.stdout.on('data', (chunk: Buffer) => {
    status += chunk;
  });
  await new Promise((resolve) => curl.on('close', resolve));
  if (status !== '202') throw new Error(`submission: ${status}`);
  totals.push(performance.now() - from);
  // The claim and the job's start follow the answer.
  await new Promise((resolve) => setTimeout(resolve, 300));
  delay.disable();
  delays.push(delay.max / 1e6);
}
console.log(
  `\nHTTP submission (curl): ${totals.map((ms) => ms.toFixed(0)).join(', ')} ms; event-loop delay max ${delays.map((ms) => ms.toFixed(0)).join(', ')} ms`,
);
await server.close();
rmSync(dir, { recursive: true, force: true });
