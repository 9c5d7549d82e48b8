/**
 * A real server for a bench: on a loopback port with a temporary data directory, without logging or rate
 * limit, and a client that calls it with the development key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CreateServerOptions, startServer } from '../src/index.js';

/**
 * What a bench's server starts with, before the bench's own options: a loopback port (and free port), no
 * logging, no rate limit. The benches of the feature packages spread it too
 * (`../../server/bench/bench-server.js`).
 */
export const BENCH_SERVER_OPTIONS = {
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  rateLimit: false,
} as const satisfies CreateServerOptions;

export interface BenchServer {
  readonly url: string;
  /**
   * A request to `path` (or a full URL): POST with `json` or `body`, else GET. The answer's body is parsed
   * as JSON when it is JSON, else kept as text.
   */
  call(
    path: string,
    init?: { method?: string; json?: unknown; body?: string },
    // biome-ignore lint/suspicious/noExplicitAny: benches read arbitrary JSON
  ): Promise<{ status: number; data: any }>;
  close(): Promise<void>;
}

export async function startBenchServer(options: CreateServerOptions = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'glossa-bench-'));
  const server = await startServer({ dataDir, ...BENCH_SERVER_OPTIONS, ...options });
  return {
    url: server.url,
    async call(path, init = {}) {
      const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
      const response = await fetch(path.startsWith('http') ? path : server.url + path, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Service-Auth-Key ${server.devKey}`,
          ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();
      try {
        return { status: response.status, data: JSON.parse(text) };
      } catch {
        return { status: response.status, data: text };
      }
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
