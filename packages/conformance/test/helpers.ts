/**
 * A real Glossa server with every feature (a fresh SQLite data directory, loopback ports) behind a recording
 * proxy: every request a peer of the public protocol makes, and the server's answer, is kept for the
 * description-driven checks (`description.ts`).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { allFeatures, type GlossaServer, startServer } from '@glossa/server-full';
import * as deepl from 'deepl-node';

export interface Exchange {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

export interface ConformanceServer {
  readonly server: GlossaServer;
  /** The recording proxy's URL: give it to clients. */
  readonly url: string;
  /** Every exchange through the proxy, in order. */
  readonly exchanges: Exchange[];
  /** The official client, with the auth scheme word set through its documented `headers` option. */
  client(options?: deepl.DeepLClientOptions): deepl.DeepLClient;
  /** A raw call through the proxy (JSON body when `json` is given). */
  call(
    path: string,
    init?: {
      method?: string;
      json?: unknown;
      headers?: Record<string, string>;
      body?: Blob | FormData | string;
    },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function startConformanceServer(): Promise<ConformanceServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'glossa-conformance-'));
  const server = await startServer({
    dataDir,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    rateLimit: false,
    features: allFeatures(),
  });
  const target = new URL(server.url);
  const exchanges: Exchange[] = [];
  const proxy: Server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const [path = '', query = ''] = (incoming.url ?? '').split('?');
          exchanges.push({
            method: incoming.method ?? 'GET',
            path,
            query,
            status: answer.statusCode ?? 0,
            contentType: String(answer.headers['content-type'] ?? ''),
            // The body as the description has it: a compressed answer (a quality report is sent gzipped to a
            // client that accepts it) is recorded decompressed; the client still gets the bytes as sent.
            body:
              answer.headers['content-encoding'] === 'gzip'
                ? gunzipSync(Buffer.concat(chunks))
                : Buffer.concat(chunks),
          });
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(Buffer.concat(chunks));
        });
      },
    );
    forward.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const auth = { Authorization: `Service-Auth-Key ${server.devKey}` };
  // The write engines start on first use (spelling dictionaries, grammar checker): tens of seconds on a loaded
  // machine. Started here, so a test's timeout measures the protocol, not that start.
  const warm = await fetch(`${server.url}/v2/write/correct`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text: ['He go to school.'], target_lang: 'en-US' }),
  });
  if (warm.status !== 200)
    throw new Error(`write engines did not start: ${warm.status} ${await warm.text()}`);
  return {
    server,
    url,
    exchanges,
    client: (options = {}) =>
      new deepl.DeepLClient(server.devKey, {
        serverUrl: url,
        maxRetries: 0,
        minTimeout: 60_000,
        ...options,
        headers: { ...auth, ...options.headers },
      }),
    call: (path, init = {}) =>
      fetch(url + path, {
        method: init.method ?? (init.json === undefined && init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...auth,
          ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
        ...(init.body !== undefined ? { body: init.body } : {}),
      }),
    async close() {
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await closed;
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
