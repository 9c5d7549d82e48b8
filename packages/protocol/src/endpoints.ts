import type { Static, TSchema } from '@sinclair/typebox';
import type { EndpointDefinition } from './endpoint.js';
import { DOCUMENT_ENDPOINTS } from './endpoints/documents.js';
import { GLOSSARY_ENDPOINTS } from './endpoints/glossaries.js';
import { LANGUAGE_TOOL_ENDPOINTS } from './endpoints/language-tools.js';
import { SPINE_ENDPOINTS } from './endpoints/spine.js';
import { STYLE_RULE_ENDPOINTS } from './endpoints/style-rules.js';
import { TRANSLATION_MEMORY_ENDPOINTS } from './endpoints/translation-memories.js';
import { VOICE_ENDPOINTS } from './endpoints/voice.js';

/**
 * Every endpoint of the interface, keyed by operationId. The server registers its routes and validation
 * from this table, the client types its methods from it, and `openapi.json` is generated from it.
 */
export const ENDPOINTS = {
  ...SPINE_ENDPOINTS,
  ...LANGUAGE_TOOL_ENDPOINTS,
  ...GLOSSARY_ENDPOINTS,
  ...STYLE_RULE_ENDPOINTS,
  ...TRANSLATION_MEMORY_ENDPOINTS,
  ...DOCUMENT_ENDPOINTS,
  ...VOICE_ENDPOINTS,
} as const satisfies Record<string, EndpointDefinition>;

export type OperationId = keyof typeof ENDPOINTS;

type PartOf<Op extends OperationId, Key extends string> = (typeof ENDPOINTS)[Op] extends {
  readonly [K in Key]: infer Schema extends TSchema;
}
  ? Static<Schema>
  : undefined;

/** The JSON body type of an endpoint (`undefined` when it takes none): `EndpointBody<'translateText'>`. */
export type EndpointBody<Op extends OperationId> = PartOf<Op, 'body'>;
/** The query type of an endpoint, or `undefined`. */
export type EndpointQuery<Op extends OperationId> = PartOf<Op, 'query'>;
/** The path parameters of an endpoint, or `undefined`. */
export type EndpointParams<Op extends OperationId> = PartOf<Op, 'params'>;
/** The JSON response type of an endpoint, or `undefined` (204, files, TSV, the WebSocket). */
export type EndpointResponse<Op extends OperationId> = PartOf<Op, 'response'>;

/** The endpoints of the server's optional feature packages, by package (see `@glossa/server`'s features). */
export { DOCUMENT_ENDPOINTS, LANGUAGE_TOOL_ENDPOINTS, VOICE_ENDPOINTS };

/** The table as a list, in a stable order. */
export const ENDPOINT_LIST: readonly EndpointDefinition[] = Object.values(ENDPOINTS);

/** Find the endpoint for a method and a Fastify-style path. */
export function findEndpoint(method: string, path: string): EndpointDefinition | undefined {
  const upper = method.toUpperCase();
  return ENDPOINT_LIST.find((endpoint) => endpoint.method === upper && endpoint.path === path);
}
