/**
 * GET /openapi.json: the protocol's OpenAPI 3.1 document (`createOpenApiDocument`), restricted to the
 * endpoints this server serves and naming its two base URLs. Public: no key needed.
 */
import { createOpenApiDocument } from '@glossa/protocol';
import type { Route } from '../http/route.js';

export function buildOpenApiDocument(routes: readonly Route[], servers: { paid: string; free: string }) {
  return createOpenApiDocument({
    endpoints: [...new Set(routes.map((route) => route.endpoint))],
    servers: [
      { url: servers.paid, description: 'paid plan' },
      { url: servers.free, description: 'free plan (keys ending in :fx)' },
    ],
  });
}
