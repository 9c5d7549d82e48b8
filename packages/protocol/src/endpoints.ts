import type { EndpointDefinition } from './endpoint.js';
import { SPINE_ENDPOINTS } from './endpoints/spine.js';

/**
 * Every endpoint of the interface, keyed by operationId. The server registers its routes and validation
 * from this table, the client types its methods from it, and `openapi.json` is generated from it.
 */
export const ENDPOINTS = {
  ...SPINE_ENDPOINTS,
} as const satisfies Record<string, EndpointDefinition>;

export type OperationId = keyof typeof ENDPOINTS;

/** The table as a list, in a stable order. */
export const ENDPOINT_LIST: readonly EndpointDefinition[] = Object.values(ENDPOINTS);

/** Find the endpoint for a method and a Fastify-style path. */
export function findEndpoint(method: string, path: string): EndpointDefinition | undefined {
  const upper = method.toUpperCase();
  return ENDPOINT_LIST.find((endpoint) => endpoint.method === upper && endpoint.path === path);
}
