import type { TSchema } from '@sinclair/typebox';
import { TRACE_ID_PATTERN } from './auth.js';
import { type AccessRule, BODY_CONTENT_TYPES, type EndpointDefinition, toOpenApiPath } from './endpoint.js';
import { ENDPOINT_LIST } from './endpoints.js';
import { EdgeErrorBody, ErrorBody, STATUS_MEANINGS } from './errors.js';
import { MAX_REPORTING_TAG_LENGTH } from './limits.js';
import { REPORTING_TAG_HEADER } from './translate.js';

type Json = Record<string, unknown>;

/** Version of the machine-readable description the interface names (service-interface.md, Versioning). */
export const INTERFACE_VERSION = '3.13.0';

const ACCESS_TEXT: Record<AccessRule, string> = {
  any: 'Any valid key (free or paid plan).',
  paid: 'Paid plans only; a free-plan key gets 403.',
  admin: 'Organization administrators only; others get 403.',
  detection_beta: 'Accounts enrolled in the language-detection beta only; others get 403.',
  quality_alpha: 'Accounts in the quality-evaluation alpha only; others get 403.',
  voice_jobs_alpha: 'Accounts flagged for voice jobs (alpha) only; others get 403.',
  signed_url: 'No Authorization header: the URL carries its own signed, expiring credential.',
};

/** Turns TypeBox schemas into plain JSON Schema, moving every schema with an `$id` to components. */
class SchemaCollector {
  readonly schemas: Record<string, Json> = {};

  ref(schema: TSchema): Json {
    // JSON round trip: drops TypeBox's symbol keys, leaves plain JSON Schema.
    return this.convert(JSON.parse(JSON.stringify(schema)) as Json);
  }

  private convert(node: unknown): Json {
    if (Array.isArray(node)) return node.map((item) => this.convert(item)) as unknown as Json;
    if (node === null || typeof node !== 'object') return node as Json;
    const { $id, ...rest } = node as Json;
    const converted: Json = {};
    for (const [key, value] of Object.entries(rest)) {
      converted[key] =
        key === 'const' || key === 'default' || key === 'x-values' ? value : this.convert(value);
    }
    if (typeof $id !== 'string') return converted;
    this.schemas[$id] ??= converted;
    return { $ref: `#/components/schemas/${$id}` };
  }
}

function parameters(
  schema: TSchema | undefined,
  location: 'path' | 'query',
  collector: SchemaCollector,
): Json[] {
  if (!schema) return [];
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const required = new Set((schema as { required?: string[] }).required ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: collector.ref(property),
  }));
}

/** Multipart bodies: the endpoint's fields plus the required `file` part, as one object. */
function multipartSchema(body: TSchema | undefined, collector: SchemaCollector): Json {
  const properties: Json = {};
  for (const [name, property] of Object.entries((body?.['properties'] ?? {}) as Record<string, TSchema>)) {
    properties[name] = collector.ref(property);
  }
  properties['file'] = { type: 'string', contentMediaType: 'application/octet-stream' };
  const required = [...((body?.['required'] ?? []) as string[]), 'file'];
  return { type: 'object', properties, required, additionalProperties: false };
}

function requestBody(endpoint: EndpointDefinition, collector: SchemaCollector): Json | undefined {
  if (!endpoint.encodings) return undefined;
  const content: Json = {};
  for (const encoding of endpoint.encodings) {
    if (encoding === 'upload') {
      content['*/*'] = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
    } else if (encoding === 'multipart') {
      content[BODY_CONTENT_TYPES.multipart] = { schema: multipartSchema(endpoint.body, collector) };
    } else if (endpoint.body) {
      content[BODY_CONTENT_TYPES[encoding]] = { schema: collector.ref(endpoint.body) };
    }
  }
  return { required: true, content };
}

const traceHeader = { 'X-Trace-ID': { $ref: '#/components/headers/TraceId' } };

function successResponse(endpoint: EndpointDefinition, collector: SchemaCollector): Json {
  if (endpoint.status === 101) return { description: 'Switching Protocols (WebSocket)' };
  const response: Json = { description: endpoint.summary, headers: traceHeader };
  if (endpoint.response)
    response['content'] = { 'application/json': { schema: collector.ref(endpoint.response) } };
  else if (endpoint.responseContentType) {
    response['content'] = { [endpoint.responseContentType]: { schema: { type: 'string' } } };
  }
  return response;
}

/** The error statuses an endpoint can answer with, from its table entry. */
export function errorStatuses(endpoint: EndpointDefinition): number[] {
  const statuses = new Set<number>([403, 429, 500]);
  if (endpoint.params || endpoint.query || endpoint.body || endpoint.headers) statuses.add(400);
  if (endpoint.params || endpoint.access === 'signed_url') statuses.add(404);
  if (endpoint.maxBodyBytes !== undefined) statuses.add(413);
  if (endpoint.encodings) statuses.add(415);
  if (endpoint.billed) statuses.add(456);
  if (endpoint.notes?.includes('503')) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

function operation(endpoint: EndpointDefinition, collector: SchemaCollector): Json {
  const headerParameters = (endpoint.headers ?? []).map((name) => ({
    name: name === REPORTING_TAG_HEADER ? 'X-Service-Reporting-Tag' : name,
    in: 'header',
    required: false,
    description:
      'Attributes usage to a custom tag: trimmed, lower-cased, printable ASCII without whitespace.',
    schema: { type: 'string', maxLength: MAX_REPORTING_TAG_LENGTH },
  }));
  const responses: Json = { [String(endpoint.status)]: successResponse(endpoint, collector) };
  for (const status of endpoint.otherStatuses ?? [])
    responses[String(status)] = successResponse(endpoint, collector);
  for (const status of errorStatuses(endpoint))
    responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  const description = [ACCESS_TEXT[endpoint.access], endpoint.notes].filter(Boolean).join('\n\n');
  const body = requestBody(endpoint, collector);
  const allParameters = [
    ...parameters(endpoint.params, 'path', collector),
    ...parameters(endpoint.query, 'query', collector),
    ...headerParameters,
  ];
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description,
    tags: [endpoint.group],
    ...(endpoint.deprecated ? { deprecated: true } : {}),
    ...(endpoint.access === 'signed_url' ? { security: [] } : {}),
    ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    'x-glossa-access': endpoint.access,
    ...(endpoint.maxBodyBytes !== undefined ? { 'x-glossa-max-body-bytes': endpoint.maxBodyBytes } : {}),
  };
}

function errorResponses(collector: SchemaCollector): Json {
  const body = {
    'application/json': {
      schema: { oneOf: [collector.ref(ErrorBody), collector.ref(EdgeErrorBody)] },
    },
  };
  const responses: Json = {};
  for (const [status, { meaning, retryable }] of Object.entries(STATUS_MEANINGS)) {
    const headers: Json = { ...traceHeader };
    if (status === '429') {
      headers['Retry-After'] = {
        description: 'Seconds to wait before retrying',
        schema: { type: 'integer' },
      };
    }
    responses[`Error${status}`] = {
      description: `${meaning[0]!.toUpperCase()}${meaning.slice(1)}${retryable ? ' (retry with backoff)' : ''}`,
      headers,
      content: body,
    };
  }
  return responses;
}

export interface OpenApiOptions {
  /** The endpoints to describe (default: all of `ENDPOINTS`); a server passes the ones it serves. */
  readonly endpoints?: readonly EndpointDefinition[];
  /** Server URLs (default: one templated `{base_url}`), e.g. a paid-plan and a free-plan base URL. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
}

const DEFAULT_SERVERS = [
  {
    url: '{base_url}',
    description: 'The plan-specific base URL (paid plans and the free plan each have their own)',
    variables: { base_url: { default: 'http://127.0.0.1:8080' } },
  },
];

/** The OpenAPI 3.1 document of the interface, generated from `ENDPOINTS` (no I/O). */
export function createOpenApiDocument(options: OpenApiOptions = {}): Json {
  const endpoints = options.endpoints ?? ENDPOINT_LIST;
  const collector = new SchemaCollector();
  const paths: Record<string, Json> = {};
  for (const endpoint of endpoints) {
    const path = toOpenApiPath(endpoint.path);
    paths[path] ??= {};
    paths[path]![endpoint.method.toLowerCase()] = operation(endpoint, collector);
  }
  const responses = errorResponses(collector);
  const sortedSchemas = Object.fromEntries(
    Object.entries(collector.schemas).sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Glossa service interface',
      version: INTERFACE_VERSION,
      description:
        'Translation, text improvement, language support and usage analytics. Generated from @glossa/protocol.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: options.servers ?? DEFAULT_SERVERS,
    security: [{ ServiceAuthKey: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: sortedSchemas,
      responses,
      headers: {
        TraceId: {
          description: 'Identifies the request for support; log it.',
          schema: { type: 'string', pattern: TRACE_ID_PATTERN.source },
        },
      },
      securitySchemes: {
        ServiceAuthKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'Send `Authorization: Service-Auth-Key <key>`. A key ending in `:fx` belongs to the free plan.',
        },
      },
    },
  };
}
