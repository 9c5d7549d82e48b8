/**
 * Cold start (issue 31): the language tools load their models at start, off the event loop, and `/ready`
 * answers 503 until they are loaded; the first write, detect and quality requests after it work. Behaviour
 * only: how fast they answer is bench/cold-start.ts's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerFeature } from '@glossa/server/feature';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../server/test/helpers.js';
import { trackReadiness } from '../src/readiness.js';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const serverIndex = fileURLToPath(new URL('../../server/src/index.ts', import.meta.url));
const featureIndex = fileURLToPath(new URL('../src/index.ts', import.meta.url));

const silent = { info() {}, error() {} };

describe('readiness of a warm-up', () => {
  it('/ready answers 503 at once while it loads, 200 once loaded', async () => {
    let loaded: () => void = () => {};
    const warmUp = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    const readiness = trackReadiness(warmUp, silent, 'the test models');
    const feature: ServerFeature = {
      name: 'test-warm-up',
      routes: [],
      start: () => ({ ready: () => readiness.ready(), close: async () => {} }),
    };
    const t = await startTestServer({ features: [feature] });
    try {
      const loading = await t.call('/ready', { key: null });
      expect(loading.status).toBe(503);
      expect(loading.data).toMatchObject({ message: 'Not ready: the test models are loading' });
      loaded();
      await warmUp;
      expect((await t.call('/ready', { key: null })).status).toBe(200);
    } finally {
      await t.server.close();
    }
  });

  it('a warm-up that fails keeps /ready at 503 with its reason', async () => {
    const readiness = trackReadiness(Promise.reject(new Error('Harper did not load')), silent, 'tools');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(readiness.ready()).rejects.toThrow('Harper did not load');
    expect(() => trackReadiness(undefined, silent, 'tools').ready()).not.toThrow();
    await expect(trackReadiness(undefined, silent, 'tools').ready()).resolves.toBeUndefined();
  });
});

it('a fresh server: /ready 503 until the models are loaded, then 200; the first write, detect and quality requests work; the event loop never loads the detection models', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-cold-start-'));
  try {
    const script = join(dir, 'script.mts');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';
import { join } from 'node:path';
const { startServer } = await import(${JSON.stringify(serverIndex)});
const { languageToolsFeature } = await import(${JSON.stringify(featureIndex)});
const server = await startServer({ dataDir: join(${JSON.stringify(dir)}, 'data'), port: 0, freePort: 0, host: '127.0.0.1', logger: false, rateLimit: false, features: [languageToolsFeature()] });
const answers = [];
for (;;) {
  const reply = await fetch(server.url + '/ready');
  const body = await reply.json();
  answers.push(reply.status === 200 ? 200 : reply.status + ' ' + body.message);
  if (reply.status === 200) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const post = async (path, json) => {
  const reply = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: 'Service-Auth-Key ' + server.devKey, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: reply.status, data: await reply.json() };
};
const write = await post('/v2/write/rephrase', { text: ['I recieved teh package yesterday.'], target_lang: 'en-US' });
const detect = await post('/v3/detect/language', { text: ['Das ist ein ganz normaler deutscher Satz.'] });
const quality = await post('/v3/quality/evaluate', { source_lang: 'en', target_lang: 'es', segments: [{ source: 'Keep 25 files.', translation: 'Conserve 52 archivos.' }] });
const cache = createRequire(import.meta.url).cache;
const onLoop = Object.keys(cache).some((path) => path.includes('/cld3-asm/') || path.includes('/eld/'));
console.log(JSON.stringify({ answers, write, detect, quality, onLoop }));
await server.close();`,
    );
    const run = spawnSync(tsx, ['--conditions', '@glossa/source', script], {
      encoding: 'utf8',
      timeout: 280_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    const outcome = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    // 503 naming the loading, as many times as it took, then 200.
    expect(outcome.answers.at(-1)).toBe(200);
    for (const answer of outcome.answers.slice(0, -1))
      expect(answer).toBe('503 Not ready: the language tools are loading');
    expect(outcome.write.status).toBe(200);
    expect(outcome.write.data.improvements[0].text).toBe('I received the package yesterday.');
    expect(outcome.detect).toEqual({
      status: 200,
      data: { results: [{ detection_status: 'success', detected_language: 'de' }] },
    });
    expect(outcome.quality.status).toBe(200);
    expect(outcome.quality.data.segments[0].issues).toEqual([
      expect.objectContaining({ category: 'number', check: 'number_mismatch' }),
    ]);
    expect(outcome.onLoop).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
