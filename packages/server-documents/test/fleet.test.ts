/**
 * Three `glossa-server` processes with document translation (test/serve.ts) on one PostgreSQL and one Redis
 * behind a real haproxy (round robin): a document uploaded through one instance is polled and downloaded
 * through the others, once; an instance killed (SIGKILL) in the middle of a document job leaves it to
 * another, which finishes it once, billed once; one stopped (SIGTERM) hands it over at once. Real Apertium
 * (en→es) and the pseudo engine.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, hasHaproxy, startFleet } from '../../server/test/fleet.js';
import {
  hasPostgres,
  hasRedisServer,
  type PostgresCluster,
  type RedisServer,
  startPostgres,
  startRedis,
} from '../../server/test/services.js';
import { createDatabase } from './storage-probe.js';

const ready = hasPostgres && hasRedisServer && hasHaproxy;
if (!ready)
  console.warn(
    'Skipping the documents fleet tests: they need postgresql, redis-server and haproxy installed.',
  );

const DEV_KEY = 'fleet-documents-dev-key-0123';
let cluster: PostgresCluster;
let redis: RedisServer;
let fleet: Fleet;
let database: pg.Pool;

beforeAll(async () => {
  if (!ready) return;
  cluster = await startPostgres();
  redis = await startRedis();
  const databaseUrl = await createDatabase(cluster);
  database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  fleet = await startFleet({
    size: 3,
    databaseUrl,
    redisUrl: redis.url,
    devKey: DEV_KEY,
    script: new URL('./serve.ts', import.meta.url).pathname,
    flags: ['--engines', 'apertium,pseudo', '--document-concurrency', '1', '--rate-limit', 'off'],
  });
}, 180_000);

afterAll(async () => {
  await database?.end();
  await fleet?.stop();
  await redis?.stop();
  await cluster?.stop();
});

const base = (index: number) => `http://127.0.0.1:${fleet.instances[index]!.port}`;

interface Ids {
  document_id: string;
  document_key: string;
}

async function newKey(): Promise<string> {
  const created = await fleet.run(['keys', 'create', '--plan', 'paid']);
  const key = /^key: (\S+)$/m.exec(created.stdout)?.[1];
  if (!key) throw new Error(`keys create failed: ${created.stderr}`);
  return key;
}

async function upload(
  url: string,
  key: string,
  name: string,
  text: string,
  fields: Record<string, string>,
): Promise<{ status: number; by: string; ids: Ids }> {
  const form = new FormData();
  form.append('file', new Blob([text]), name);
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  const response = await fetch(`${url}/v2/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Service-Auth-Key ${key}` },
  });
  return {
    status: response.status,
    by: response.headers.get('x-served-by') ?? '',
    ids: (await response.json()) as Ids,
  };
}

async function post(url: string, key: string, ids: Ids, path = '') {
  const response = await fetch(`${url}/v2/document/${ids.document_id}${path}`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ document_key: ids.document_key }),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

// biome-ignore lint/suspicious/noExplicitAny: JSON status bodies
async function waitDone(url: string, key: string, ids: Ids, timeoutMs: number): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await post(url, key, ids);
    const body = JSON.parse(reply.bytes.toString());
    if (reply.status !== 200) throw new Error(`status ${reply.status}: ${reply.bytes}`);
    if (body.status === 'done' || body.status === 'error') return body;
    if (Date.now() > deadline) throw new Error(`not done in ${timeoutMs} ms: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function usage(key: string): Promise<number> {
  const response = await fetch(`${fleet.url}/v2/usage`, {
    headers: { authorization: `Service-Auth-Key ${key}` },
  });
  return ((await response.json()) as { character_count: number }).character_count;
}

describe.skipIf(!ready)('documents on a fleet of three instances behind haproxy', () => {
  it('uploaded through one instance, polled and downloaded through the others, once', async () => {
    const key = await newKey();
    const text = 'Hello world.\nThe red car is fast.\n';
    const uploaded = await upload(base(0), key, 'a.txt', text, { target_lang: 'ES', source_lang: 'EN' });
    expect(uploaded.status).toBe(200);
    const final = await waitDone(base(1), key, uploaded.ids, 60_000);
    expect(final).toEqual({ document_id: uploaded.ids.document_id, status: 'done', billed_characters: 34 });
    const result = await post(base(2), key, uploaded.ids, '/result');
    expect(result.status).toBe(200);
    expect(result.bytes.toString()).toMatch(/^Hola mundo\.\nEl coche rojo es [^\n]+\.\n$/i);
    // Once: gone on every instance.
    for (const index of [0, 1, 2]) {
      expect((await post(base(index), key, uploaded.ids, '/result')).status).toBe(404);
      expect((await post(base(index), key, uploaded.ids)).status).toBe(404);
    }
    // Downloads racing through three instances: one gets the result.
    const second = await upload(fleet.url, key, 'b.txt', 'The house is big.', { target_lang: 'en-XA' });
    expect(second.status).toBe(200);
    expect((await waitDone(fleet.url, key, second.ids, 60_000)).status).toBe('done');
    const raced = await Promise.all([0, 1, 2].map((index) => post(base(index), key, second.ids, '/result')));
    expect(raced.map((reply) => reply.status).sort()).toEqual([200, 404, 404]);
    // Another account cannot see a document (every query is scoped by account).
    const third = await upload(fleet.url, key, 'c.txt', 'The garden is green.', { target_lang: 'en-XA' });
    const stranger = await newKey();
    expect((await post(base(1), stranger, third.ids)).status).toBe(404);
    expect((await post(base(2), stranger, third.ids, '/result')).status).toBe(404);
    expect((await waitDone(base(0), key, third.ids, 60_000)).status).toBe('done');
    expect(await usage(key)).toBe(34 + [...'The house is big.'].length + [...'The garden is green.'].length);
    expect(await usage(stranger)).toBe(0);
    // Every instance reports the shared queue's depth.
    for (const index of [0, 1, 2]) {
      const metrics = await (await fetch(`${base(index)}/metrics`)).text();
      expect(metrics).toMatch(/^glossa_document_queue_depth 0$/m);
      expect(metrics).toMatch(/^glossa_documents_translating 0$/m);
    }
  }, 120_000);

  it('an instance killed (SIGKILL) mid-job leaves the document to another: finished once, billed once', async () => {
    const key = await newKey();
    // Lines that differ (numbers), so that no engine output is cached: a job of many seconds.
    const text = Array.from(
      { length: 6000 },
      (_, index) => `The red car ${index} is fast. The house is big and the garden ${index} is green.\n`,
    ).join('');
    const uploaded = await upload(fleet.url, key, 'long.txt', text, { target_lang: 'ES', source_lang: 'EN' });
    expect(uploaded.status).toBe(200);
    expect(await usage(key)).toBe([...text].length);

    // Mid-job: translating, a checkpoint saved (the job runner's row), far from the end.
    let row: { owner: string; progress: number; attempt: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const { rows } = await database.query(
        // The document is its job: translating is the job running.
        'SELECT owner, checkpoint, attempt, status FROM jobs WHERE id = $1',
        [uploaded.ids.document_id],
      );
      const progress = rows[0]?.checkpoint ? (JSON.parse(rows[0].checkpoint) as { done: number }).done : 0;
      if (rows[0]?.status === 'running' && progress > 0) {
        row = { owner: rows[0].owner, progress, attempt: rows[0].attempt };
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(row, 'the job did not start within 60 s').toBeDefined();
    expect(row!.progress).toBeLessThan(0.8);
    expect(row!.attempt).toBe(1);
    const victim = fleet.instances[fleet.indexOfOwner(row!.owner)]!;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');

    const final = await waitDone(fleet.url, key, uploaded.ids, 180_000);
    expect(final).toEqual({
      document_id: uploaded.ids.document_id,
      status: 'done',
      billed_characters: [...text].length,
    });
    const { rows } = await database.query('SELECT attempt FROM jobs WHERE id = $1', [
      uploaded.ids.document_id,
    ]);
    // Taken over: the runner's second attempt finished it.
    expect(rows[0].attempt).toBe(2);
    const result = await post(fleet.url, key, uploaded.ids, '/result');
    expect(result.status).toBe(200);
    const lines = result.bytes.toString().split('\n');
    expect(lines).toHaveLength(6001);
    expect(lines[0]).toMatch(/^El coche rojo 0 es .+ La casa es grande/);
    expect(lines[5999]).toMatch(/^El coche rojo 5999 es .+ La casa es grande .+ 5999 /);
    expect((await post(fleet.url, key, uploaded.ids, '/result')).status).toBe(404);
    // Billed once: the upload's reservation, neither charged again nor refunded by the retried job.
    expect(await usage(key)).toBe([...text].length);
  }, 300_000);

  it('an instance stopped (SIGTERM) mid-job queues the document again at once: another finishes it, billed once', async () => {
    const key = await newKey();
    const text = Array.from(
      { length: 6000 },
      (_, index) => `The blue car ${index} is slow. The house is small and the garden ${index} is dry.\n`,
    ).join('');
    const uploaded = await upload(fleet.url, key, 'long.txt', text, { target_lang: 'ES', source_lang: 'EN' });
    expect(uploaded.status).toBe(200);
    let owner: string | undefined;
    const deadline = Date.now() + 60_000;
    while (!owner && Date.now() < deadline) {
      const { rows } = await database.query('SELECT owner, status FROM jobs WHERE id = $1', [
        uploaded.ids.document_id,
      ]);
      if (rows[0]?.status === 'running') owner = rows[0].owner;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(owner, 'the job did not start within 60 s').toBeDefined();
    const stopped = fleet.instances[fleet.indexOfOwner(owner!)]!;
    stopped.child.kill('SIGTERM');
    expect(await stopped.exited).toBe(0);
    const final = await waitDone(fleet.url, key, uploaded.ids, 180_000);
    expect(final.status).toBe('done');
    const { rows } = await database.query('SELECT attempt FROM jobs WHERE id = $1', [
      uploaded.ids.document_id,
    ]);
    expect(rows[0].attempt).toBe(2);
    const result = await post(fleet.url, key, uploaded.ids, '/result');
    expect(result.status).toBe(200);
    expect(result.bytes.toString().split('\n')[5999]).toMatch(/^El coche azul 5999 /);
    // Handed over by the stopping instance itself: its runner queues its attempt again as it closes.
    expect(await usage(key)).toBe([...text].length);
  }, 300_000);
});
