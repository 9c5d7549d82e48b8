/**
 * A 200-page document killed (SIGKILL) at 80 % and resumed (issue 32): a text of 200 pages (20 lines, 40
 * sentences each: 8,000 distinct sentences, 40 chunks of 200) translated with Apertium en→es by a server in
 * a child process (packages/server/test/crash-serve.ts), killed once its job's checkpoint says 80 %; a server started again
 * on the same data directory finishes it. Measured: the time from that restart to `done`, and the sentences
 * its engine got, resuming from the job's checkpoint and kept chunks, and, as the baseline measured in the
 * same run, after the checkpoint and the chunks were deleted (a restart from the beginning). SQLite. The
 * restarted server's engine is started before the clock (Apertium loads its pipeline in seconds, whatever
 * the job); the ratio is of the jobs' times (claim to completion, the runner's row).
 *   pnpm --filter @glossa/server-documents bench   (or: npx tsx --conditions @glossa/source bench/document-takeover.ts)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { documentsFeature } from '../src/index.js';
import { countingApertium } from '../test/counting-engine.js';
import { waitUntilDone } from './wait-done.js';

const DEV_KEY = 'bench-takeover-dev-key-012345678';
const PAGES = 200;
const page = (p: number) =>
  Array.from(
    { length: 20 },
    (_, i) => `The red car ${p}-${i} is fast. The house is big and the garden ${p}-${i} is green.\n`,
  ).join('');
const text = Array.from({ length: PAGES }, (_, p) => page(p)).join('\n');
const auth = { authorization: `Service-Auth-Key ${DEV_KEY}` };

/** The child server (the crash tests' one server script, packages/server/test/crash-serve.ts); its URL once ready. */
async function child(dataDir: string) {
  const script = join(import.meta.dirname, '..', '..', 'server', 'test', 'crash-serve.ts');
  const config = {
    dataDir,
    devKey: DEV_KEY,
    feature: { module: join(import.meta.dirname, '..', 'src', 'index.ts'), factory: 'documentsFeature' },
    apertium: {},
    server: { rateLimit: false, jobs: { sweepMs: 200, pollMs: 100 } },
  };
  const process_ = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions', '@glossa/source', script, JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)\n/.exec(output);
      if (ready) resolve(ready[1]!);
    };
    process_.stdout.on('data', onData);
    process_.stderr.on('data', onData);
    process_.once('exit', () => reject(new Error(`crash-serve exited:\n${output}`)));
  });
  return { url, process: process_ };
}

const sql = <T>(dataDir: string, file: string, work: (db: Database.Database) => T): T => {
  const db = new Database(join(dataDir, file));
  db.pragma('busy_timeout = 5000');
  try {
    return work(db);
  } finally {
    db.close();
  }
};

async function run(resume: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'glossa-bench-takeover-'));
  try {
    const first = await child(dataDir);
    const form = new FormData();
    form.append('file', new Blob([text]), 'report.txt');
    form.append('target_lang', 'ES');
    form.append('source_lang', 'EN');
    const uploaded = await fetch(`${first.url}/v2/document`, { method: 'POST', body: form, headers: auth });
    const ids = (await uploaded.json()) as { document_id: string; document_key: string };
    const done = () =>
      sql(dataDir, 'glossa.sqlite', (db) => {
        const row = db.prepare('SELECT checkpoint FROM jobs WHERE id = ?').get(ids.document_id) as
          | { checkpoint: string | null }
          | undefined;
        return row?.checkpoint ? (JSON.parse(row.checkpoint) as { done: number }).done : 0;
      });
    let at = done();
    while (at < 0.8) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      at = done();
    }
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await exited;
    if (!resume) {
      // What a job did without checkpoints: start again from the beginning.
      const files = join(dataDir, 'jobs', ids.document_id);
      for (const name of readdirSync(files)) if (name.startsWith('chunk-')) rmSync(join(files, name));
      sql(dataDir, 'glossa.sqlite', (db) => db.prepare('UPDATE jobs SET checkpoint = NULL').run());
    }
    const counting = countingApertium();
    // The engine started (its pipeline loaded: seconds, paid by any restart, checkpoint or not) before the
    // clock starts: what is measured is the document's work.
    await counting.engine.translate({
      texts: ['Warm.'],
      source: 'en',
      target: 'es',
      markup: false,
      formality: 'default',
    });
    const warm = counting.texts();
    const began = performance.now();
    const server = await startServer({
      dataDir,
      ...BENCH_SERVER_OPTIONS,
      devKey: DEV_KEY,
      engines: [counting.engine],
      features: [documentsFeature()],
    });
    try {
      await waitUntilDone(server.url, DEV_KEY, ids);
      const seconds = (performance.now() - began) / 1000;
      // The job's own time: from the claim of the attempt that finished it to its completion (the runner's row).
      const job = sql(dataDir, 'glossa.sqlite', (db) =>
        db.prepare('SELECT claimed_at, updated_at FROM jobs WHERE id = ?').get(ids.document_id),
      ) as { claimed_at: string; updated_at: string };
      const jobSeconds = (Date.parse(job.updated_at) - Date.parse(job.claimed_at)) / 1000;
      const result = await fetch(`${server.url}/v2/document/${ids.document_id}/result`, {
        method: 'POST',
        body: JSON.stringify({ document_key: ids.document_key }),
        headers: { ...auth, 'content-type': 'application/json' },
      });
      const bytes = Buffer.from(await result.arrayBuffer());
      return { seconds, jobSeconds, sentences: counting.texts() - warm, killedAt: at, bytes };
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const restart = await run(false);
const resumed = await run(true);
const ratio = resumed.jobSeconds / restart.jobSeconds;
const row = (name: string, r: typeof restart) =>
  `${name.padEnd(29)} killed at ${(r.killedAt * 100).toFixed(1)} %  job ${r.jobSeconds.toFixed(2).padStart(6)} s  restart to done ${r.seconds.toFixed(2).padStart(6)} s  engine got ${String(r.sentences).padStart(5)} sentences`;
console.log(
  `document-takeover: ${PAGES} pages, ${PAGES * 20} lines, ${PAGES * 40} sentences, Apertium en→es, SQLite`,
);
console.log(row('restart from the beginning', restart));
console.log(row('resumed from the checkpoint', resumed));
console.log(
  `ratio resumed / restart: job ${ratio.toFixed(3)} (target <= 0.4), restart to done ${(resumed.seconds / restart.seconds).toFixed(3)}`,
);
console.log(`results identical: ${restart.bytes.equals(resumed.bytes)}`);
if (ratio > 0.4 || !restart.bytes.equals(resumed.bytes)) process.exitCode = 1;
