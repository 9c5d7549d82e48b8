import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { type CreateServerOptions, type GlossaServer, startServer } from '../src/index.js';
import { MAX_WAITING_WORK, measureRssWith, memoryCeilingBytes, reserveMemory } from '../src/memory-budget.js';
import { onPostgres, sharedPostgres, stopSharedPostgres } from './services.js';

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  data: any;
  text: string;
}

export interface CallOptions {
  method?: string;
  json?: unknown;
  form?: string | [string, string][];
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** `null`: no Authorization header. Default: the development key. */
  key?: string | null;
  base?: string;
}

export interface TestServer {
  server: GlossaServer;
  dataDir: string;
  call(path: string, options?: CallOptions): Promise<Reply>;
  translate(body: unknown, options?: CallOptions): Promise<Reply>;
  /** Creates a glossary from TSV entries (`source\ttarget` lines) and returns its id; fails unless 201. */
  glossary(source: string, target: string, entries: string, options?: CallOptions): Promise<string>;
  close(): Promise<void>;
}

/** The database of each data directory, when the suite runs on PostgreSQL (a restart finds its data). */
const databases = new Map<string, Promise<string>>();
// Each test file (modules are isolated per file) stops the cluster it started: a worker process may be
// ended without its 'exit' event, which would leave the cluster running.
if (onPostgres) afterAll(() => stopSharedPostgres());

/**
 * With `GLOSSA_TEST_POSTGRES` set, the storage options of a data directory: its own database on a cluster
 * this test process started (services.ts). Otherwise none: SQLite in the data directory.
 */
export async function storageFor(dataDir: string): Promise<{ databaseUrl?: string }> {
  if (!onPostgres) return {};
  let url = databases.get(dataDir);
  if (!url) {
    url = sharedPostgres().then((cluster) => cluster.createDatabase());
    databases.set(dataDir, url);
  }
  return { databaseUrl: await url };
}

/**
 * A real server on loopback ports with a fresh data directory: a real SQLite file, or with
 * `GLOSSA_TEST_POSTGRES` set, a real PostgreSQL database of its own.
 */
export async function startTestServer(options: CreateServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'glossa-server-test-'));
  const server = await startServer({
    dataDir,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    ...(options.storage ? {} : await storageFor(dataDir)),
    ...options,
  });
  const call = async (path: string, options: CallOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? server.devKey : options.key;
    if (key !== null) headers.authorization = `Service-Auth-Key ${key}`;
    let body: string | Uint8Array | undefined;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = typeof options.form === 'string' ? options.form : new URLSearchParams(options.form).toString();
    } else if (options.raw !== undefined) body = options.raw;
    const method = options.method ?? (body === undefined ? 'GET' : 'POST');
    const response = await fetch((options.base ?? server.url) + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, data, text };
  };
  return {
    server,
    dataDir,
    call,
    translate: (body, options = {}) => call('/v2/translate', { ...options, json: body }),
    async glossary(source, target, entries, options = {}) {
      const reply = await call('/v2/glossaries', {
        ...options,
        json: { name: 'g', source_lang: source, target_lang: target, entries, entries_format: 'tsv' },
      });
      if (reply.status !== 201) throw new Error(`glossary: ${reply.status} ${reply.text}`);
      return reply.data.glossary_id as string;
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const TRACE_ID = /^[0-9a-f]{32}$/;
export const codePoints = (text: string) => [...text].length;

/** Resolves once `check` answers true (looked at every 50 ms); throws after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The memory admission (memory-budget.ts) busy: nothing heavy fits (a stand-in RSS at the ceiling) and its
 * queue is full of this test's own waiting work, so that heavy work's reservation is refused at once. `free`
 * gives the memory back: the queue empties and the RSS is the process's own again.
 */
export function busyAdmission(): { free(): Promise<void> } {
  measureRssWith(() => memoryCeilingBytes());
  const fillers = new AbortController();
  setMaxListeners(MAX_WAITING_WORK + 1, fillers.signal);
  const queued = Array.from({ length: MAX_WAITING_WORK }, () =>
    reserveMemory('Filler', 8 * 2 ** 20, 120_000, fillers.signal).catch(() => undefined),
  );
  return {
    async free() {
      fillers.abort(new Error('done'));
      await Promise.all(queued);
      measureRssWith(undefined);
    },
  };
}
