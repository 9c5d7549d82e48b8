/**
 * GET /openapi.json: the OpenAPI 3.1 document of the endpoints this server serves, generated from the
 * protocol's ENDPOINTS table (the same schemas the routes validate with). Public: no key needed.
 */
import { type EndpointDefinition, ErrorBody, REPORTING_TAG_HEADER, toOpenApiPath } from '@glossa/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { Route } from '../http/route.js';

/** Interface version the document describes (service-interface.md, "Versioning"). */
export const INTERFACE_VERSION = '3.13.0';

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid request',
  '403': 'Authorization failed or feature not granted',
  '404': 'Not found',
  '413': 'Request too large',
  '415': 'Unsupported media type',
  '429': 'Too many requests (see Retry-After)',
  '456': 'Quota exceeded',
  '500': 'Internal server error',
};

/** Plain JSON Schema: TypeBox's symbols dropped and `$id`s removed (inline schemas must not redeclare ids). */
function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key === '$id' ? undefined : value));
}

function parameters(endpoint: EndpointDefinition) {
  const list: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    const object = schema ? jsonSchema(schema) : undefined;
    const required = new Set((object?.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((object?.properties ?? {}) as Record<string, unknown>)) {
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: property });
    }
  }
  for (const header of endpoint.headers ?? []) {
    const name = header === REPORTING_TAG_HEADER ? 'X-Service-Reporting-Tag' : header;
    list.push({ name, in: 'header', required: false, schema: { type: 'string', maxLength: 100 } });
  }
  return list;
}

function operation(endpoint: EndpointDefinition) {
  const responses: Record<string, unknown> = {
    [String(endpoint.status)]: {
      description: endpoint.summary,
      ...(endpoint.response
        ? { content: { 'application/json': { schema: jsonSchema(endpoint.response) } } }
        : {}),
    },
  };
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    responses[status] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    };
  }
  const body = endpoint.body ? jsonSchema(endpoint.body) : undefined;
  const content: Record<string, unknown> = {};
  for (const encoding of endpoint.encodings ?? (body ? ['json'] : [])) {
    if (encoding === 'json') content['application/json'] = { schema: body };
    if (encoding === 'form') content['application/x-www-form-urlencoded'] = { schema: body };
  }
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.group],
    ...(endpoint.deprecated ? { deprecated: true } : {}),
    ...(endpoint.notes ? { description: endpoint.notes } : {}),
    ...(endpoint.access === 'signed_url' ? { security: [] } : {}),
    parameters: parameters(endpoint),
    ...(body ? { requestBody: { required: true, content } } : {}),
    responses,
  };
}

export function buildOpenApiDocument(routes: readonly Route[], servers: { paid: string; free: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { endpoint } of routes) {
    const path = toOpenApiPath(endpoint.path);
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Glossa service interface',
      version: INTERFACE_VERSION,
      description: 'Translation, language support and usage analytics, served by @glossa/server.',
    },
    servers: [
      { url: servers.paid, description: 'paid plan' },
      { url: servers.free, description: 'free plan (keys ending in :fx)' },
    ],
    security: [{ serviceAuthKey: [] }],
    components: {
      securitySchemes: {
        serviceAuthKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Service-Auth-Key <key>',
        },
      },
      schemas: { ErrorBody: jsonSchema(ErrorBody) },
    },
    paths,
  };
}
