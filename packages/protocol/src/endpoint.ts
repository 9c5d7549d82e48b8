import type { TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a request body may be encoded:
 * `json` (application/json), `form` (application/x-www-form-urlencoded, decoded with `decodeForm`),
 * `multipart` (multipart/form-data with a `file` part), `upload` (the raw file bytes, any content type).
 */
export type BodyEncoding = 'json' | 'form' | 'multipart' | 'upload';

/** The `Content-Type` of each body encoding. */
export const BODY_CONTENT_TYPES: Readonly<Record<BodyEncoding, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  upload: 'application/octet-stream',
};

/**
 * Who may call an endpoint (the `Authorization: Service-Auth-Key <key>` header is needed for all but
 * `signed_url`):
 * - `any`: any valid key, free or paid plan
 * - `paid`: paid-plan keys only (text improvement, style rules); a free key gets 403
 * - `admin`: organization administrators (custom-tag analytics)
 * - `detection_beta`: accounts enrolled in the language-detection beta
 * - `quality_alpha`: accounts in the quality-evaluation closed alpha
 * - `voice_jobs_alpha`: accounts flagged for asynchronous voice jobs
 * - `signed_url`: no Authorization header; the URL carries its own signed, expiring credential
 */
export type AccessRule =
  | 'any'
  | 'paid'
  | 'admin'
  | 'detection_beta'
  | 'quality_alpha'
  | 'voice_jobs_alpha'
  | 'signed_url';

export const ACCESS_RULES: readonly AccessRule[] = [
  'any',
  'paid',
  'admin',
  'detection_beta',
  'quality_alpha',
  'voice_jobs_alpha',
  'signed_url',
];

/** One endpoint of the interface, as data. */
export interface EndpointDefinition {
  readonly method: HttpMethod;
  /** Fastify-style path: `/v3/glossaries/:glossary_id`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  /** Group for documentation (OpenAPI tag). */
  readonly group: string;
  readonly access: AccessRule;
  readonly deprecated?: boolean;
  /** Path parameters. */
  readonly params?: TSchema;
  /** Query string parameters (repeated keys are arrays; decode with `decodeForm`). */
  readonly query?: TSchema;
  /** Request body; `encodings` says how it may arrive. */
  readonly body?: TSchema;
  readonly encodings?: readonly BodyEncoding[];
  /** Largest accepted body in bytes, where the spec sets one (over it: 413). */
  readonly maxBodyBytes?: number;
  /** The request uses characters of the monthly quota (exhausted: 456). */
  readonly billed?: boolean;
  /** Request headers the endpoint reads besides Authorization (lower-case names). */
  readonly headers?: readonly string[];
  /** Success status. */
  readonly status: number;
  /** Other success statuses with the same response (for example 200 for an existing export). */
  readonly otherStatuses?: readonly number[];
  /** JSON response schema; absent for 204 and for file responses. */
  readonly response?: TSchema;
  /** Content type of a non-JSON response (a file, TSV). */
  readonly responseContentType?: string;
  /** What else a reader of the table must know (cross-field rules, conditions on errors). */
  readonly notes?: string;
}

/** Turn a Fastify-style path into an OpenAPI one: `/v3/glossaries/:glossary_id` → `/v3/glossaries/{glossary_id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/**
 * The 413 message when a body of `byteLength` bytes is over the endpoint's limit, or `undefined` when it
 * fits (a body exactly at the limit is accepted).
 */
export function checkBodySize(endpoint: EndpointDefinition, byteLength: number): string | undefined {
  if (endpoint.maxBodyBytes === undefined || byteLength <= endpoint.maxBodyBytes) return undefined;
  return `Request body too large: ${byteLength} bytes (at most ${endpoint.maxBodyBytes} for ${endpoint.path}).`;
}
