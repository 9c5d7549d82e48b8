/**
 * Voice jobs (`/v3/voice/jobs`) on one instance on SQLite, one on PostgreSQL (pg-boss), and two on the same
 * PostgreSQL, in the same run: N jobs of one flite kal16 sentence uploaded at once (alternating between the
 * instances), the time until every job is done, and the time from upload to done of each (median, max).
 * Each instance runs one job at a time, so two instances should roughly halve the wall time on a machine
 * with two free cores. `tsx --conditions @glossa/source bench/voice-jobs.ts [N]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { startPostgres } from '../../server/test/services.js';
import { voiceFeature } from '../src/index.js';

const JOBS = Number(process.argv[2] ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-jobs-bench-'));
execFileSync('flite', [
  '-voice',
  'kal16',
  '-t',
  'Please send me the report before the meeting tomorrow morning.',
  '-o',
  join(dir, 'speech.wav'),
]);
const wav = readFileSync(join(dir, 'speech.wav'));
const audioSeconds = (wav.length - 44) / 32_000;

async function start(name: string, databaseUrl?: string): Promise<GlossaServer> {
  mkdirSync(join(dir, name));
  return startServer({
    dataDir: join(dir, name),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    engineOrder: ['apertium'],
    features: [voiceFeature()],
    ...(databaseUrl ? { databaseUrl } : {}),
  });
}

async function upload(server: GlossaServer): Promise<string> {
  const form = new FormData();
  form.append('source_language', 'en');
  form.append('target_languages', 'es');
  form.append('file', new Blob([wav]), 'speech.wav');
  const reply = await fetch(`${server.url}/v3/voice/jobs`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${server.devKey}` },
    body: form,
  });
  if (reply.status !== 202) throw new Error(`upload: ${reply.status} ${await reply.text()}`);
  return ((await reply.json()) as { job_id: string }).job_id;
}

async function run(label: string, servers: GlossaServer[]) {
  const started = Date.now();
  const ids = await Promise.all(
    Array.from({ length: JOBS }, (_, index) => upload(servers[index % servers.length]!)),
  );
  const done = new Map<string, number>();
  while (done.size < ids.length) {
    for (const id of ids) {
      if (done.has(id)) continue;
      const reply = await fetch(`${servers[0]!.url}/v3/voice/jobs/${id}`, {
        headers: { authorization: `Service-Auth-Key ${servers[0]!.devKey}` },
      });
      const status = ((await reply.json()) as { status: string }).status;
      if (status === 'error') throw new Error(`job ${id} failed`);
      if (status === 'done') done.set(id, Date.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const times = [...done.values()].sort((a, b) => a - b);
  const wall = times.at(-1)!;
  console.log(
    `${label}: ${JOBS} jobs of ${audioSeconds.toFixed(1)} s audio done in ${(wall / 1000).toFixed(1)} s ` +
      `(${((JOBS * audioSeconds) / (wall / 1000)).toFixed(2)} s of audio per s); upload to done: median ` +
      `${(times[Math.floor(times.length / 2)]! / 1000).toFixed(1)} s, max ${(wall / 1000).toFixed(1)} s`,
  );
}

const cluster = await startPostgres();
try {
  const sqlite = await start('sqlite');
  await run('SQLite, 1 instance', [sqlite]);
  await sqlite.close();

  const one = await start('pg-one', await cluster.createDatabase());
  await run('PostgreSQL + pg-boss, 1 instance', [one]);
  await one.close();

  const url = await cluster.createDatabase();
  const pair = [await start('pg-a', url), await start('pg-b', url)];
  await run('PostgreSQL + pg-boss, 2 instances', pair);
  for (const server of pair) await server.close();
} finally {
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
