/**
 * Three `glossa-server` processes on one PostgreSQL and one Redis behind a real haproxy (round robin):
 * quotas, rate limits and key revocation hold across the fleet; glossaries, style lists and memories
 * created through one instance are used by the others; a memory import whose instance is killed finishes
 * on another, once; and a rolling restart loses no request.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, hasHaproxy, startFleet } from './fleet.js';
import {
  hasPostgres,
  hasRedisServer,
  type PostgresCluster,
  type RedisServer,
  startPostgres,
  startRedis,
} from './services.js';

const ready = hasPostgres && hasRedisServer && hasHaproxy;
if (!ready)
  console.warn('Skipping the fleet tests: they need postgresql, redis-server and haproxy installed.');

const DEV_KEY = 'fleet-dev-key-0123456789';
let cluster: PostgresCluster;
let redis: RedisServer;
let fleet: Fleet;
let database: pg.Pool;

beforeAll(async () => {
  if (!ready) return;
  cluster = await startPostgres();
  redis = await startRedis();
  const databaseUrl = await cluster.createDatabase();
  database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  fleet = await startFleet({
    size: 3,
    databaseUrl,
    redisUrl: redis.url,
    devKey: DEV_KEY,
    // Apertium for the resources' checks (EN→ES), pseudo for the load (EN→en-XA).
    flags: [
      '--rate-limit',
      '5',
      '--rate-limit-burst',
      '40',
      '--shutdown-grace-ms',
      '5000',
      // haproxy takes an instance out after 3 failed checks 1 s apart: its /ready answers 503 that long
      // before it closes (see the rolling restart below).
      '--shutdown-drain-ms',
      '4000',
      '--engines',
      'pseudo,apertium',
    ],
  });
}, 180_000);

afterAll(async () => {
  await fleet?.stop();
  await database?.end();
  await redis?.stop();
  await cluster?.stop();
});

interface Answer {
  status: number;
  by: string;
  retryAfter: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the interface
  data: any;
}

async function call(path: string, key: string, body?: unknown, url = fleet.url): Promise<Answer> {
  const response = await fetch(url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Service-Auth-Key ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {}
  return {
    status: response.status,
    by: response.headers.get('x-served-by') ?? '',
    retryAfter: response.headers.get('retry-after'),
    data,
  };
}

const translate = (key: string, text: string[]) =>
  call('/v2/translate', key, { text, target_lang: 'en-XA', source_lang: 'en' });

/** One instance, not the balancer. */
const direct = (index: number) => `http://127.0.0.1:${fleet.instances[index]!.port}`;

/** A TMX of `units` (source, Spanish target). */
const tmx = (units: readonly (readonly [string, string])[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en"/><body>${units
    .map(
      ([source, target]) =>
        `<tu><tuv xml:lang="en"><seg>${source}</seg></tuv><tuv xml:lang="es"><seg>${target}</seg></tuv></tu>`,
    )
    .join('\n')}</body></tmx>`;

/** Starts an import through `url` and PUTs the file to its signed upload URL, through the balancer. */
async function startImport(url: string, key: string, content: string): Promise<string> {
  const started = await call(
    '/v3/translation_memories/import',
    key,
    { source_file: { file_name: 'ui.tmx', content_length: Buffer.byteLength(content) } },
    url,
  );
  expect(started.status).toBe(202);
  const signed = new URL(started.data.upload_url);
  const upload = await fetch(`${fleet.url}${signed.pathname}${signed.search}`, {
    method: 'PUT',
    body: content,
  });
  expect(upload.status).toBe(204);
  return started.data.job_id;
}

async function waitForJob(key: string, jobId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await call(`/v3/translation_memories/jobs/${jobId}`, key);
    const result = job.data.results?.[0];
    if (result && result.status !== 'processing' && result.status !== 'awaiting_input') return result;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${result?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function newKey(limit?: number): Promise<string> {
  const created = await fleet.run([
    'keys',
    'create',
    '--plan',
    'paid',
    ...(limit === undefined ? [] : ['--character-limit', String(limit)]),
  ]);
  const key = /^key: (\S+)$/m.exec(created.stdout)?.[1];
  if (!key) throw new Error(`keys create failed: ${created.stderr}`);
  return key;
}

describe.skipIf(!ready)('a fleet of three instances behind haproxy', () => {
  it('a burst over every instance bills exactly the monthly limit and answers 456 to the rest', async () => {
    const key = await newKey(100);
    const replies = await Promise.all(Array.from({ length: 30 }, () => translate(key, ['ten chars!'])));
    expect(new Set(replies.map((reply) => reply.by)).size).toBe(3);
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(10);
    expect(replies.filter((reply) => reply.status === 456)).toHaveLength(20);
    for (let index = 0; index < 3; index++) {
      const usage = await call('/v2/usage', key);
      expect(usage.data.character_count).toBe(100);
    }
  });

  it('the rate limit holds per key across instances: 429 with Retry-After past the shared burst', async () => {
    const key = await newKey();
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 100 }, () => translate(key, ['x'])));
    const seconds = (performance.now() - started) / 1000;
    const allowed = replies.filter((reply) => reply.status === 200);
    const limited = replies.filter((reply) => reply.status === 429);
    expect(allowed.length + limited.length).toBe(100);
    expect(new Set(allowed.map((reply) => reply.by)).size).toBe(3);
    // Burst 40 plus 5/s refill for the burst's duration; three per-instance buckets would allow 100.
    expect(allowed.length).toBeGreaterThanOrEqual(40);
    expect(allowed.length).toBeLessThanOrEqual(40 + Math.ceil(seconds * 5) + 1);
    expect(Number(limited[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.data.code).toBe('too_many_requests');
  });

  it('a key revoked through the command is refused by every instance at once', async () => {
    const key = await newKey();
    // Every instance has the key in its cache.
    const before = await Promise.all(Array.from({ length: 6 }, () => call('/v2/usage', key)));
    expect(before.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(before.map((reply) => reply.by)).size).toBe(3);
    const revoked = await fleet.run(['keys', 'revoke', '--key', key]);
    expect(revoked.stdout, revoked.stderr).toContain('revoked');
    const after = await Promise.all(Array.from({ length: 6 }, () => call('/v2/usage', key)));
    expect(after.map((reply) => reply.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(new Set(after.map((reply) => reply.by)).size).toBe(3);
  });

  it('a glossary, a style list and a memory created through one instance are used by translations answered by the others', async () => {
    const key = await newKey();
    const glossary = await call(
      '/v2/glossaries',
      key,
      { name: 'g', source_lang: 'en', target_lang: 'es', entries: 'file\tarchivo', entries_format: 'tsv' },
      direct(0),
    );
    expect(glossary.status).toBe(201);
    const style = await call(
      '/v3/style_rules',
      key,
      {
        name: 's',
        language: 'es',
        custom_instructions: [{ label: 'term', prompt: 'Use "ventanilla" instead of "ventana"' }],
      },
      direct(0),
    );
    expect(style.status).toBe(201);
    const jobId = await startImport(
      direct(0),
      key,
      tmx([
        ['Your changes have been saved.', 'Se han guardado sus cambios.'],
        ['The file could not be uploaded.', 'No se pudo cargar el archivo.'],
      ]),
    );
    const job = await waitForJob(key, jobId, 30_000);
    expect(job.status).toBe('completed');
    const memory = job.translation_memory_id as string;

    // Three calls in a row of each kind: round robin gives each kind to every instance.
    const served = { glossary: new Set<string>(), style: new Set<string>(), memory: new Set<string>() };
    for (let round = 0; round < 3; round++) {
      const withGlossary = await call('/v2/translate', key, {
        text: ['The file is too large.'],
        source_lang: 'EN',
        target_lang: 'ES',
        glossary_id: glossary.data.glossary_id,
      });
      expect(withGlossary.status).toBe(200);
      expect(withGlossary.data.translations[0].text).toMatch(/\barchivo\b/);
      expect(withGlossary.data.translations[0].text).not.toMatch(/lima/i);
      served.glossary.add(withGlossary.by);
    }
    for (let round = 0; round < 3; round++) {
      const withStyle = await call('/v2/translate', key, {
        text: ['The file is in the window.'],
        source_lang: 'EN',
        target_lang: 'ES',
        style_id: style.data.style_id,
      });
      expect(withStyle.status).toBe(200);
      expect(withStyle.data.translations[0].text).toContain('ventanilla');
      served.style.add(withStyle.by);
    }
    for (let round = 0; round < 3; round++) {
      const withMemory = await call('/v2/translate', key, {
        text: ['Your changes have been saved.'],
        source_lang: 'EN',
        target_lang: 'ES',
        translation_memory_id: memory,
      });
      expect(withMemory.status).toBe(200);
      expect(withMemory.data.translations[0].text).toBe('Se han guardado sus cambios.');
      served.memory.add(withMemory.by);
    }
    for (const by of Object.values(served)) expect([...by].sort()).toEqual(['glossa1', 'glossa2', 'glossa3']);
    // Listed by every instance.
    for (let index = 0; index < 3; index++) {
      expect((await call('/v2/glossaries', key, undefined, direct(index))).data.glossaries).toHaveLength(1);
      expect((await call('/v3/translation_memories', key, undefined, direct(index))).data.total_count).toBe(
        1,
      );
    }
  }, 120_000);

  it('an instance killed (SIGKILL) mid-import leaves the import to another: completed once, one memory', async () => {
    const key = await newKey();
    const SEGMENTS = 100_000;
    const units = Array.from(
      { length: SEGMENTS },
      (_, index) =>
        [
          `The red car number ${index} is fast, and the garden ${index} is green.`,
          `El coche rojo ${index}.`,
        ] as const,
    );
    const jobId = await startImport(fleet.url, key, tmx(units));
    // Mid-import: claimed by an instance, some batches written, far from the end.
    let row: { owner: string; memory_id: string; attempt: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      // The job's checkpoint names the memory its attempt writes.
      const { rows } = await database.query(
        `SELECT r.owner, r.checkpoint::jsonb->>'memoryId' AS memory_id, r.attempt, r.status,
           (SELECT COUNT(*) FROM memory_segments s WHERE s.memory_id = r.checkpoint::jsonb->>'memoryId')::int AS written
         FROM jobs r WHERE r.id = $1`,
        [jobId],
      );
      if (rows[0]?.owner && rows[0].written > 0) {
        row = rows[0];
        expect(rows[0].written).toBeLessThan(SEGMENTS);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(row, 'the import did not start within 60 s').toBeDefined();
    expect(row!.attempt).toBe(1);
    const index = fleet.indexOfOwner(row!.owner);
    const victim = fleet.instances[index]!;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');

    const result = await waitForJob(key, jobId, 180_000);
    expect(result.status).toBe('completed');
    const memory = result.translation_memory_id as string;
    expect(memory).not.toBe(row!.memory_id);
    const finished = () =>
      database.query(
        `SELECT r.attempt, r.owner, (SELECT COUNT(*) FROM memories m WHERE m.account_id = r.account_id)::int AS memories,
           (SELECT COUNT(*) FROM memory_segments s WHERE s.memory_id IN
             (SELECT id FROM memories m WHERE m.account_id = r.account_id))::int AS segments,
           (SELECT COUNT(*) FROM job_files f WHERE f.job_id = r.id)::int AS files
         FROM jobs r WHERE r.id = $1`,
        [jobId],
      );
    // The upload (a job file) is deleted once the job ended, right after its completion.
    const deleted = Date.now() + 10_000;
    while ((await finished()).rows[0].files > 0 && Date.now() < deleted)
      await new Promise((resolve) => setTimeout(resolve, 50));
    // Taken over once; the dead attempt's half memory is gone; the upload is no longer kept.
    expect((await finished()).rows[0]).toEqual({
      attempt: 2,
      owner: null,
      memories: 1,
      segments: SEGMENTS,
      files: 0,
    });
    // The killed instance back first: until haproxy's checks mark it down, a request may be routed to it.
    await fleet.start(index);
    const listed = await call(`/v3/translation_memories/${memory}`, key);
    expect(listed.data.segment_count).toBe(SEGMENTS);
    const used = await call('/v2/translate', key, {
      text: [units[12_345]![0]],
      source_lang: 'EN',
      target_lang: 'ES',
      translation_memory_id: memory,
    });
    expect(used.status, JSON.stringify(used.data)).toBe(200);
    expect(used.data.translations[0].text).toBe('El coche rojo 12345.');
  }, 300_000);

  // What lost a request here before (status 0, "other side closed", no line in haproxy's log): an instance
  // stopping closed its connections to haproxy at once, and haproxy then closed the client connections that
  // had their last response from it, without a "Connection: close"; a client that sent its next request on
  // such a connection lost it before haproxy read it (no instance ever accepted it). Measured with a
  // keep-alive client: 4 lost of 9,597 over 8 restarts without a drain, 0 of 13,661 with 4 s. So an
  // instance now drains (--shutdown-drain-ms): /ready answers 503 while it serves on, and it closes only
  // once haproxy has taken it out.
  it('a rolling restart (SIGTERM one instance at a time) under steady load loses no request', async () => {
    const keys = await Promise.all(Array.from({ length: 4 }, () => newKey()));
    const statuses: number[] = [];
    /** What went wrong with a request, and when: for the failure message. */
    const failures: string[] = [];
    let running = true;
    const load = keys.map(async (key) => {
      let n = 0;
      while (running) {
        const reply = await translate(key, [`request ${n++}`]).catch(
          (error: Error & { cause?: { code?: string; message?: string } }) => {
            failures.push(
              `${new Date().toISOString()} ${error.message} ${error.cause?.code ?? ''} ${error.cause?.message ?? ''}`,
            );
            return { status: 0 } as Answer;
          },
        );
        if (reply.status !== 200 && reply.status !== 0)
          failures.push(`${new Date().toISOString()} ${reply.status} ${JSON.stringify(reply.data)}`);
        statuses.push(reply.status);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    for (let index = 0; index < fleet.instances.length; index++) {
      const instance = fleet.instances[index]!;
      const count = statuses.length;
      instance.child.kill('SIGTERM');
      expect(await instance.exited).toBe(0);
      await fleet.start(index);
      // The balancer sees it healthy again before the next one stops.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(statuses.length).toBeGreaterThan(count);
    }
    running = false;
    await Promise.all(load);
    expect(statuses.length).toBeGreaterThan(20);
    // haproxy's lines of requests that did not end normally (termination state other than ----).
    const abnormal = fleet.balancerLog.filter((line) => / (?!----)[A-Za-z-]{4} \d/.test(line));
    expect(
      statuses.filter((status) => status !== 200),
      `${failures.join('\n')}\nhaproxy:\n${abnormal.join('\n')}`,
    ).toEqual([]);
  }, 240_000);
});
