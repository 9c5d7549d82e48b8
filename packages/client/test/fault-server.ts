/**
 * A fault-injecting loopback HTTP server of the tests' own: a fake service that answers each request
 * with a scripted fault (status, reset, slow, hung) so the client's retries can be observed exactly.
 * It is a fake because a real server cannot be made to fail on cue; the tests that use it say so.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | {
      readonly kind: 'ok';
      readonly body?: unknown;
      readonly status?: number;
      readonly headers?: Record<string, string>;
    }
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly body?: unknown;
      readonly retryAfter?: string;
    }
  | { readonly kind: 'reset' }
  | { readonly kind: 'slow'; readonly delayMs: number }
  | { readonly kind: 'hang' };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export const TRACE_ID = '0123456789abcdef0123456789abcdef';

export function translationsFor(body: string): unknown {
  let texts: unknown = [];
  try {
    texts = (JSON.parse(body) as { text?: unknown }).text;
  } catch {}
  const list = Array.isArray(texts) ? texts : [];
  return {
    translations: list.map((text) => ({ detected_source_language: 'EN', text: `es:${String(text)}` })),
  };
}

export interface FaultServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Answer the next requests with these faults, in order; afterwards `ok`. */
  plan(faults: Fault[]): void;
  /** Decide each answer with a function instead of a plan. */
  handle(decide: (request: RecordedRequest) => Fault): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFaultServer(): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  let queue: Fault[] = [];
  let decide: ((request: RecordedRequest) => Fault) | undefined;
  const hung = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const fault = decide ? decide(recorded) : (queue.shift() ?? { kind: 'ok' });
      answer(fault, recorded, res);
    });
  });

  function answer(fault: Fault, request: RecordedRequest, res: ServerResponse): void {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-trace-id': TRACE_ID, ...headers });
      res.end(JSON.stringify(body));
    };
    switch (fault.kind) {
      case 'ok':
        json(fault.status ?? 200, fault.body ?? translationsFor(request.body), fault.headers);
        return;
      case 'status':
        json(
          fault.status,
          fault.body ?? { message: `scripted ${fault.status}` },
          fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
        );
        return;
      case 'reset':
        res.socket?.destroy();
        return;
      case 'slow':
        setTimeout(() => json(200, translationsFor(request.body)), fault.delayMs).unref();
        return;
      case 'hang':
        hung.add(res);
        return;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    plan(faults) {
      decide = undefined;
      queue = [...faults];
    },
    handle(next) {
      decide = next;
    },
    reset() {
      requests.length = 0;
      queue = [];
      decide = undefined;
    },
    async close() {
      for (const res of hung) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
