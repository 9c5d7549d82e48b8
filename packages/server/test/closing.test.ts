/**
 * A request that reaches a closing server (Fastify's drain: a request already on an open connection) gets
 * a 503 in the interface's error shape with a trace id. Real server over loopback HTTP; the close is held
 * open by a preClose hook of the test so that the request lands inside the drain window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from '../src/server.js';
import { TRACE_ID } from './helpers.js';

describe('a server that is closing', () => {
  it('answers 503 {message, code} with X-Trace-ID, not Fastify default body', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-closing-'));
    const server = await createServer({ dataDir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let closingStarted = () => {};
    const started = new Promise<void>((resolve) => {
      closingStarted = resolve;
    });
    server.paid.addHook('preClose', async () => {
      closingStarted();
      await held;
    });
    await server.listen();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/v2/usage`,
          { agent, headers: { authorization: `Service-Auth-Key ${server.devKey}` } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      expect((await get()).status).toBe(200); // opens the keep-alive connection
      const closing = server.close();
      await started;
      const reply = await get();
      release();
      await closing;
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.body)).toEqual({
        message: 'The server is shutting down. Retry later.',
        code: 'service_unavailable',
      });
      expect(reply.headers['x-trace-id']).toMatch(TRACE_ID);
    } finally {
      release();
      agent.destroy();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
