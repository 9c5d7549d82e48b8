/**
 * The real `@glossa/server` on ephemeral loopback ports with a real SQLite file in a temporary data
 * directory, plus probes that tell which endpoints it serves yet, so that tests of endpoints still being
 * built turn on by themselves when they land.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allFeatures, startServer } from '@glossa/server-full';
import { type ClientOptions, GlossaClient } from '../src/index.js';

export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | null;
}

export interface RealServer {
  readonly url: string;
  readonly freeUrl: string;
  readonly devKey: string;
  readonly dataDir: string;
  /** Requests sent through clients made by `client()` (each `fetch` call counts). */
  readonly fetchCalls: { count: number; urls: string[]; sent: SentRequest[] };
  /** A client on the dev account (or another key), counting its fetch calls. */
  client(options?: Partial<ClientOptions>): GlossaClient;
  createAccount(options: Parameters<Awaited<ReturnType<typeof startServer>>['createAccount']>[0]): Promise<{
    accountId: string;
    key: string;
  }>;
  /** Whether the server serves this route: anything but a 404/405 from the route table. */
  serves(method: string, path: string, body?: unknown): Promise<boolean>;
  /** Whether the server can translate this pair (an engine is installed and wired). */
  translates(sourceLang: string, targetLang: string): Promise<boolean>;
  close(): Promise<void>;
}

export async function startRealServer(): Promise<RealServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'glossa-client-test-'));
  const server = await startServer({
    dataDir,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    features: allFeatures(),
  });
  const fetchCalls = { count: 0, urls: [] as string[], sent: [] as SentRequest[] };
  const countingFetch: typeof fetch = (input, init) => {
    fetchCalls.count++;
    fetchCalls.urls.push(String(input));
    const headers = new Headers(init?.headers);
    fetchCalls.sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      authorization: headers.get('authorization'),
    });
    return fetch(input, init);
  };
  const raw = (method: string, path: string, body?: unknown) =>
    fetch(new URL(path, server.url), {
      method,
      headers: {
        authorization: `Service-Auth-Key ${server.devKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    url: server.url,
    freeUrl: server.freeUrl,
    devKey: server.devKey,
    dataDir,
    fetchCalls,
    client: (options = {}) =>
      new GlossaClient({ authKey: server.devKey, serverUrl: server.url, fetch: countingFetch, ...options }),
    createAccount: (options) => server.createAccount(options),
    async serves(method, path, body) {
      const response = await raw(method, path, body);
      await response.arrayBuffer();
      return response.status !== 404 && response.status !== 405;
    },
    async translates(sourceLang, targetLang) {
      const response = await raw('POST', '/v2/translate', {
        text: ['Hello'],
        source_lang: sourceLang,
        target_lang: targetLang,
      });
      await response.arrayBuffer();
      return response.status === 200;
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Today as `YYYY-MM-DD` (UTC). */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
