/**
 * The real `@glossa/server` on ephemeral loopback ports with a real SQLite file in a temporary data
 * directory, every feature installed (`@glossa/server-full`).
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
  return {
    url: server.url,
    freeUrl: server.freeUrl,
    devKey: server.devKey,
    dataDir,
    fetchCalls,
    client: (options = {}) =>
      new GlossaClient({ authKey: server.devKey, serverUrl: server.url, fetch: countingFetch, ...options }),
    createAccount: (options) => server.createAccount(options),
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
