/**
 * A scripted loopback HTTP service of the tests' own (a fake): each route answers from a script, and
 * every request is recorded with its headers and raw body. Used for the multi-step flows (job polling,
 * signed upload and download URLs, paging) while the real server does not serve them yet, and for
 * failures a real server cannot be made to produce on cue (a body cut off mid-download).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type Route = (request: ScriptedRequest, res: ServerResponse) => void;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: ScriptedRequest[];
  /** Set the routes, keyed `METHOD /path` (`*` catches the rest); unknown routes answer 404. */
  routes(routes: Record<string, Route>): void;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-trace-id': 'f'.repeat(32) });
  res.end(JSON.stringify(body));
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  let table: Record<string, Route> = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const request = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      const route = table[`${request.method} ${request.path}`] ?? table['*'];
      if (route) route(request, res);
      else sendJson(res, 404, { message: `Not found: ${request.method} ${request.path}`, code: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes(next) {
      requests.length = 0;
      table = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
