/**
 * The `deepl` engine against DeepL's own mock server (test/fixtures/deepl-mock, started here on a loopback
 * port): translate with formality, context and tags, glossaries synced by content hash, 429, 456 and 5xx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineChain, type KeptSource } from '../src/engines/chain.js';
import { createDeeplEngine, deeplBatches } from '../src/engines/deepl.js';
import type { EngineInput } from '../src/engines/engine.js';

const KEY = 'glossa-test-key:fx';
let mock: ChildProcess;
let url: string;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  mock = spawn(process.execPath, ['index.js'], {
    cwd: fileURLToPath(new URL('./fixtures/deepl-mock/', import.meta.url)),
    env: {
      ...process.env,
      DEEPL_MOCK_SERVER_PORT: String(port),
      DEEPL_MOCK_PROXY_SERVER_PORT: String(await freePort()),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    mock.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on port ${port}`)) resolve();
    });
    mock.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    mock.once('exit', (code) => reject(new Error(`deepl-mock exited (${code}): ${output}`)));
  });
}, 30_000);
afterAll(() => {
  mock?.kill();
});

let sessions = 0;
/** An engine in its own mock session (the session headers configure the mock's faults and limits). */
const engine = (session: Record<string, string> = {}, authKey = KEY) =>
  createDeeplEngine(
    {
      authKey,
      serverUrl: url,
      retryDelayMs: 5,
      headers: { 'mock-server-session': `glossa-${process.pid}-${++sessions}`, ...session },
    },
    {},
  );
const input = (texts: string[], extra: Partial<EngineInput> = {}): EngineInput => ({
  texts,
  source: 'en',
  target: 'de',
  markup: false,
  formality: 'default',
  ...extra,
});
const lastRequest = async (session: string) =>
  (await (
    await fetch(`${url}/__session__/last-request`, { headers: { 'mock-server-session': session } })
  ).json()) as {
    body: Record<string, unknown>;
  };

describe('deepl engine against deepl-mock', () => {
  it('translates with formality and context passed natively', async () => {
    const deepl = engine();
    const out = await deepl.translate(input(['proton beam'], { formality: 'more', context: 'Physics.' }));
    expect(out).toEqual(['Protonenstrahl']);
    const sent = await lastRequest(`glossa-${process.pid}-${sessions}`);
    expect(sent.body).toMatchObject({
      source_lang: 'EN',
      target_lang: 'DE',
      formality: 'prefer_more',
      context: 'Physics.',
    });
    expect(deepl.usage!().characters).toBe('proton beam'.length);
  });

  it('sends tags as tag_handling=xml; the mock drops them, so the chain keeps the source and reports it', async () => {
    const deepl = engine();
    const kept: KeptSource[] = [];
    const text = '<g id="1">proton beam</g>';
    const chain = createEngineChain([{ engine: deepl, pair: { source: 'en', target: 'de' } }], {
      onKeptSource: (event) => kept.push(event),
    });
    expect(await chain.translate(input([text], { markup: true }))).toEqual([text]);
    expect((await lastRequest(`glossa-${process.pid}-${sessions}`)).body.tag_handling).toBe('xml');
    expect(kept[0]!.attempts[0]!.problems[0]).toMatch(/inline codes/);
  });

  it('syncs a glossary by content hash: created once, reused, replaced when the entries change', async () => {
    const deepl = engine();
    const terms = { key: 'g1:1:en>de', entries: [{ source: 'proton beam', target: 'Teilchenstrahl' }] };
    expect(await deepl.translate(input(['proton beam'], { terms }))).toEqual(['Teilchenstrahl']);
    const afterFirst = deepl.glossaryRequests();
    expect(await deepl.translate(input(['proton beam'], { terms }))).toEqual(['Teilchenstrahl']);
    expect(deepl.glossaryRequests()).toBe(afterFirst);
    // A new engine (a restarted server) finds the glossary by name instead of creating another.
    const restarted = createDeeplEngine(
      { authKey: KEY, serverUrl: url, headers: { 'mock-server-session': 'x' } },
      {},
    );
    expect(await restarted.translate(input(['proton beam'], { terms }))).toEqual(['Teilchenstrahl']);
    expect(restarted.glossaryRequests()).toBe(1); // the list only
    const changed = { key: 'g1:2:en>de', entries: [{ source: 'proton beam', target: 'Protonenbündel' }] };
    expect(await deepl.translate(input(['proton beam'], { terms: changed }))).toEqual(['Protonenbündel']);
    const list = (await (
      await fetch(`${url}/v2/glossaries`, {
        headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'user-agent': 't' },
      })
    ).json()) as { glossaries: { name: string }[] };
    expect(list.glossaries.filter((glossary) => glossary.name.startsWith('glossa-'))).toHaveLength(1);
  });

  it('429 and 5xx are retried; 456 (quota) fails at once without the key in the message', async () => {
    const busy = engine({ 'mock-server-session-429-count': '2', 'mock-server-session-5xx-count': '1' });
    expect(await busy.translate(input(['proton beam']))).toEqual(['Protonenstrahl']);
    expect(busy.usage!().requests).toBe(1);
    // The mock creates an account per key at its first request, with the session's limit.
    const poorKey = `poor-${process.pid}:fx`;
    const poor = engine({ 'mock-server-session-init-character-limit': '5' }, poorKey);
    const error = (await poor.translate(input(['proton beam'])).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/quota/);
    expect(error.message).not.toContain(poorKey);
    expect(poor.usage!().requests).toBe(1);
  });

  it('batches at 50 texts a request', async () => {
    expect(
      deeplBatches(Array.from({ length: 120 }, () => 'proton beam')).map((batch) => batch.length),
    ).toEqual([50, 50, 20]);
    const deepl = engine();
    const out = await deepl.translate(input(Array.from({ length: 120 }, () => 'proton beam')));
    expect(new Set(out)).toEqual(new Set(['Protonenstrahl']));
  });
});
