/**
 * The upstream engine against a loopback HTTP server of this test's own (a scripted remote), for what a
 * real Glossa server will not do on demand: answer 429/503, stall, miscount translations, refuse a key.
 * The engine against a real second @glossa/server is in engine-upstream.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError, type EngineInput } from '../src/engines/engine.js';
import { createUpstreamEngine } from '../src/engines/upstream.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown> | undefined;
}

type Handler = (seen: Seen, res: ServerResponse, count: number) => void;

const LANGUAGES = [
  { lang: 'en', usable_as_source: true, usable_as_target: false, features: {} },
  {
    lang: 'de',
    usable_as_source: true,
    usable_as_target: true,
    features: { formality: { status: 'stable' } },
  },
  { lang: 'en-US', usable_as_source: false, usable_as_target: true, features: {} },
];

const servers = new Set<Server>();
const stop = async (server: Server) => {
  servers.delete(server);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
};
afterEach(async () => {
  await Promise.all([...servers].map(stop));
});

/** Starts the scripted remote; `translate` answers POST /v2/translate, languages are fixed. */
async function remote(translate: Handler): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  let translateCount = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const entry: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined,
    };
    seen.push(entry);
    res.setHeader('content-type', 'application/json');
    if (entry.url.startsWith('/v3/languages')) res.end(JSON.stringify(LANGUAGES));
    else translate(entry, res, ++translateCount);
  });
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const echo: Handler = (seen, res) =>
  res.end(
    JSON.stringify({ translations: (seen.body!['text'] as string[]).map((t) => ({ text: `[${t}]` })) }),
  );

const input = (texts: string[], extra: Partial<EngineInput> = {}): EngineInput => ({
  texts,
  source: 'en',
  target: 'de',
  markup: true,
  formality: 'default',
  ...extra,
});

const KEY = 'secret-upstream-key-123';

describe('upstream engine (loopback test server standing in for a remote service)', () => {
  it('reads pairs and formality support from /v3/languages', async () => {
    const { url, seen } = await remote(echo);
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY });
    expect(engine.pairs()).toEqual([
      { source: 'en', target: 'de' },
      { source: 'de', target: 'en-US' },
    ]);
    expect(engine.supportsFormality('DE')).toBe(true);
    expect(engine.supportsFormality('en-US')).toBe(false);
    expect(engine.fingerprint({ source: 'en', target: 'de' })).toBe(`upstream/${url.slice(7)}/en>de`);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v3/languages?resource=translate_text' });
    expect(seen[0]!.authorization).toBe(`Service-Auth-Key ${KEY}`);
  });

  it('forwards texts with codes as XML, formality and languages, and returns the answers in order', async () => {
    const { url, seen } = await remote(echo);
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY });
    const out = await engine.translate(input(['Save <x id="1"/> now', 'Two'], { formality: 'more' }));
    expect(out).toEqual(['[Save <x id="1"/> now]', '[Two]']);
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/v2/translate' });
    expect(seen[1]!.body).toEqual({
      text: ['Save <x id="1"/> now', 'Two'],
      source_lang: 'EN',
      target_lang: 'DE',
      tag_handling: 'xml',
      formality: 'more',
    });
  });

  it('splits texts over 128 KiB into several requests, order kept', async () => {
    const { url, seen } = await remote(echo);
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY });
    const texts = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(40_000));
    const out = await engine.translate(input(texts, { markup: false }));
    expect(out).toEqual(texts.map((t) => `[${t}]`));
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.map((s) => (s.body!['text'] as string[]).length)).toEqual([3, 2]);
    expect(posts[0]!.body).not.toHaveProperty('tag_handling');
  });

  it('retries a 429 after Retry-After and a 503 with backoff', async () => {
    const { url, seen } = await remote((s, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '0' }).end(JSON.stringify({ message: 'Too many requests' }));
      } else if (n === 2) res.writeHead(503).end(JSON.stringify({ message: 'busy' }));
      else echo(s, res, n);
    });
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY, retryDelayMs: 10 });
    expect(await engine.translate(input(['Hi']))).toEqual(['[Hi]']);
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(3);
  });

  it('gives up after maxRetries with an EngineError naming the status', async () => {
    const { url, seen } = await remote((_, res) =>
      res.writeHead(500).end(JSON.stringify({ message: 'boom' })),
    );
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY, retryDelayMs: 1, maxRetries: 2 });
    await expect(engine.translate(input(['Hi']))).rejects.toThrow(
      new EngineError('upstream: POST /v2/translate answered 500: boom', 'upstream'),
    );
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(3);
  });

  it('does not retry a 403, and never puts the key in the message', async () => {
    const { url, seen } = await remote((s, res) =>
      res.writeHead(403).end(JSON.stringify({ message: `Invalid key ${s.authorization?.split(' ')[1]}` })),
    );
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY });
    const error = await engine.translate(input(['Hi'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toBe(
      'upstream: POST /v2/translate answered 403: Invalid key [redacted]',
    );
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('rejects an answer with the wrong number of translations', async () => {
    const { url } = await remote((_, res) => res.end(JSON.stringify({ translations: [{ text: 'one' }] })));
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY });
    await expect(engine.translate(input(['a', 'b']))).rejects.toThrow(
      'upstream: /v2/translate answered 1 translations for 2 texts',
    );
  });

  it('rejects malformed answers with an EngineError, never a TypeError', async () => {
    const { url } = await remote((_, res) => res.end(JSON.stringify({ translations: [null, 5] })));
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY });
    await expect(engine.translate(input(['a', 'b']))).rejects.toThrow(
      new EngineError('upstream: /v2/translate answered 2 translations for 2 texts', 'upstream'),
    );
    const notJson = await remote((_, res) => res.end('<html>'));
    const other = await createUpstreamEngine({ baseUrl: notJson.url, authKey: KEY });
    await expect(other.translate(input(['a']))).rejects.toThrow(
      'upstream: POST /v2/translate answered invalid JSON',
    );
  });

  it('times out a remote that does not answer', async () => {
    const { url } = await remote(() => {});
    const engine = await createUpstreamEngine({ baseUrl: url, authKey: KEY, timeoutMs: 200, maxRetries: 0 });
    await expect(engine.translate(input(['Hi']))).rejects.toThrow(
      'upstream: POST /v2/translate: no answer within 200 ms',
    );
  });

  it('reports an unreachable remote and bad options', async () => {
    const { url, server } = await remote(echo);
    await stop(server);
    await expect(createUpstreamEngine({ baseUrl: url, authKey: KEY, maxRetries: 0 })).rejects.toThrow(
      'upstream: GET /v3/languages: could not connect',
    );
    await expect(createUpstreamEngine({ baseUrl: 'ftp://x', authKey: KEY })).rejects.toThrow(TypeError);
    await expect(createUpstreamEngine({ baseUrl: url, authKey: '' })).rejects.toThrow(
      'createUpstreamEngine: expected authKey to be a non-empty string',
    );
  });
});
