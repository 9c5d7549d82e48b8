import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_RULES,
  checkBodySize,
  ENDPOINT_LIST,
  ENDPOINTS,
  type EndpointDefinition,
  findEndpoint,
  MAX_TRANSLATE_REQUEST_BYTES,
  MAX_WRITE_REQUEST_BYTES,
  type OperationId,
  toOpenApiPath,
} from '../src/index.js';
import { CASES } from './cases/index.js';

/** Every endpoint the spec and the wire decisions name (plus the two signed URLs and the WebSocket). */
const EXPECTED = `
GET /v2/admin/analytics/custom-tags
POST /v2/translate
POST /v2/write/rephrase
POST /v2/write/correct
GET /v3/languages
GET /v3/languages/resources
GET /v2/languages
GET /v2/glossary-language-pairs
POST /v3/detect/language
GET /v2/usage
POST /v3/style_rules
GET /v3/style_rules
GET /v3/style_rules/:style_id
PATCH /v3/style_rules/:style_id
PUT /v3/style_rules/:style_id/configured_rules
DELETE /v3/style_rules/:style_id
POST /v3/style_rules/:style_id/custom_instructions
GET /v3/style_rules/:style_id/custom_instructions/:instruction_id
PUT /v3/style_rules/:style_id/custom_instructions/:instruction_id
DELETE /v3/style_rules/:style_id/custom_instructions/:instruction_id
GET /v3/translation_memories
GET /v3/translation_memories/:translation_memory_id
DELETE /v3/translation_memories/:translation_memory_id
GET /v3/translation_memories/:translation_memory_id/segments
POST /v3/translation_memories/import
PUT /v3/translation_memories/jobs/:job_id/upload
POST /v3/translation_memories/:translation_memory_id/export
GET /v3/translation_memories/jobs/:job_id
GET /v3/translation_memories/jobs/:job_id/download
POST /v2/glossaries
GET /v2/glossaries
GET /v2/glossaries/:glossary_id
DELETE /v2/glossaries/:glossary_id
GET /v2/glossaries/:glossary_id/entries
POST /v3/glossaries
GET /v3/glossaries
GET /v3/glossaries/:glossary_id
PATCH /v3/glossaries/:glossary_id
DELETE /v3/glossaries/:glossary_id
GET /v3/glossaries/:glossary_id/entries
PUT /v3/glossaries/:glossary_id/dictionaries
DELETE /v3/glossaries/:glossary_id/dictionaries
POST /v2/document
POST /v2/document/:document_id
POST /v2/document/:document_id/result
POST /v3/voice/realtime
GET /v3/voice/realtime
GET /v3/voice/realtime/connect
POST /v3/voice/spoken_terms
GET /v3/voice/spoken_terms
GET /v3/voice/spoken_terms/:spoken_terms_id
PUT /v3/voice/spoken_terms/:spoken_terms_id
DELETE /v3/voice/spoken_terms/:spoken_terms_id
POST /v3/voice/jobs
GET /v3/voice/jobs/:job_id
GET /v3/voice/jobs/:job_id/result
POST /v1/jobs/voice/translate
PUT /v1/jobs/voice/translate/:job_id/source
GET /v1/jobs/voice/translate/:job_id
GET /v1/jobs/voice/translate/:job_id/results/:index
POST /v3/quality/evaluate
POST /v1/quality-evaluation
GET /v1/quality-evaluation/:job_id
`
  .trim()
  .split('\n');

const endpoints = Object.entries(ENDPOINTS) as [OperationId, EndpointDefinition][];

describe('the ENDPOINTS table', () => {
  it('holds exactly the endpoints of the interface', () => {
    expect(ENDPOINT_LIST.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual(
      [...EXPECTED].sort(),
    );
  });

  it('keys each endpoint by its operationId', () => {
    for (const [key, endpoint] of endpoints) expect(endpoint.operationId).toBe(key);
  });

  it('declares exactly the path parameters of each path', () => {
    for (const endpoint of ENDPOINT_LIST) {
      const inPath = [...endpoint.path.matchAll(/:([a-z_]+)/g)].map((match) => match[1]).sort();
      const declared = Object.keys(
        (endpoint.params as { properties?: object } | undefined)?.properties ?? {},
      ).sort();
      expect(declared, endpoint.operationId).toEqual(inPath);
    }
  });

  it('gives every body its encodings, and an access rule from the list', () => {
    for (const endpoint of ENDPOINT_LIST) {
      if (endpoint.body) expect(endpoint.encodings?.length, endpoint.operationId).toBeGreaterThan(0);
      if (endpoint.encodings && !endpoint.encodings.includes('upload')) expect(endpoint.body).toBeDefined();
      expect(ACCESS_RULES).toContain(endpoint.access);
    }
  });

  it('puts the access rules of the spec on the right endpoints', () => {
    const byAccess = (access: string) =>
      ENDPOINT_LIST.filter((endpoint) => endpoint.access === access).map((endpoint) => endpoint.operationId);
    expect(byAccess('admin')).toEqual(['getCustomTagUsage']);
    expect(byAccess('detection_beta')).toEqual(['detectLanguage']);
    expect(byAccess('quality_alpha')).toEqual([
      'evaluateQuality',
      'submitQualityEvaluation',
      'pollQualityEvaluation',
    ]);
    expect(byAccess('voice_jobs_alpha')).toEqual([
      'createVoiceJob',
      'getVoiceJob',
      'getVoiceJobResult',
      'createVoiceTranslateJob',
      'getVoiceTranslateJobStatus',
    ]);
    expect(byAccess('signed_url')).toEqual([
      'uploadTranslationMemoryFile',
      'downloadTranslationMemoryExport',
      'connectVoiceStream',
      'uploadVoiceTranslateSource',
      'downloadVoiceTranslateResult',
    ]);
    expect(byAccess('paid')).toEqual([
      'rephraseText',
      'correctText',
      ...ENDPOINT_LIST.filter((endpoint) => endpoint.path.startsWith('/v3/style_rules')).map(
        (e) => e.operationId,
      ),
    ]);
  });

  it('finds an endpoint by method and path, and writes OpenAPI paths', () => {
    expect(findEndpoint('get', '/v3/glossaries/:glossary_id')?.operationId).toBe('getGlossary');
    expect(findEndpoint('PUT', '/v3/glossaries/:glossary_id')).toBeUndefined();
    expect(toOpenApiPath('/v3/style_rules/:style_id/custom_instructions/:instruction_id')).toBe(
      '/v3/style_rules/{style_id}/custom_instructions/{instruction_id}',
    );
  });
});

describe('body size limits', () => {
  it.each([
    ['translateText', MAX_TRANSLATE_REQUEST_BYTES],
    ['rephraseText', MAX_WRITE_REQUEST_BYTES],
    ['correctText', MAX_WRITE_REQUEST_BYTES],
  ] as const)('%s accepts %i bytes and refuses one more', (operationId, limit) => {
    const endpoint = ENDPOINTS[operationId];
    expect(endpoint.maxBodyBytes).toBe(limit);
    expect(checkBodySize(endpoint, limit)).toBeUndefined();
    expect(checkBodySize(endpoint, limit + 1)).toBe(
      `Request body too large: ${limit + 1} bytes (at most ${limit} for ${endpoint.path}).`,
    );
  });

  it('sets no limit where the spec has none', () => {
    const limited = ENDPOINT_LIST.filter((endpoint) => endpoint.maxBodyBytes !== undefined).map(
      (e) => e.operationId,
    );
    expect(limited).toEqual(['translateText', 'rephraseText', 'correctText']);
    expect(checkBodySize(ENDPOINTS.detectLanguage, 10_000_000)).toBeUndefined();
  });
});

type Node = TSchema & Record<string, unknown>;

/** Walk a schema, calling `visit` with each node and its parameter name in message style (`a[0].b`). */
function walk(schema: Node | undefined, name: string, visit: (node: Node, name: string) => void): void {
  if (!schema) return;
  visit(schema, name);
  const join = (child: string) => (name ? `${name}.${child}` : child);
  for (const [key, child] of Object.entries((schema['properties'] ?? {}) as Record<string, Node>))
    walk(child, join(key), visit);
  if (schema['items']) walk(schema['items'] as Node, `${name}[0]`, visit);
  for (const option of (schema['anyOf'] ?? []) as Node[]) walk(option, name, visit);
}

function requestFacts(endpoint: EndpointDefinition) {
  const facts = { required: false, enums: new Set<string>(), limits: new Set<string>() };
  for (const part of ['params', 'query', 'body'] as const) {
    walk(endpoint[part] as Node | undefined, '', (node, name) => {
      if (((node['required'] ?? []) as string[]).length > 0 || node['minProperties']) facts.required = true;
      if (node['const'] !== undefined || node['x-values']) facts.enums.add(name);
      const bounded =
        node['maxItems'] !== undefined ||
        node['maximum'] !== undefined ||
        node['minimum'] !== undefined ||
        (node['maxLength'] !== undefined && node['pattern'] === undefined);
      if (bounded) facts.limits.add(name);
    });
  }
  return facts;
}

describe.each(endpoints)('cases for %s', (operationId, endpoint) => {
  const cases = CASES[operationId];
  const facts = requestFacts(endpoint);
  const rejects = cases.rejects ?? [];
  const hasInput = Boolean(endpoint.params || endpoint.query || endpoint.body);

  it('reject a missing required field and a wrong type, where the request has them', () => {
    expect(rejects.some((reject) => reject.kind === 'missing')).toBe(facts.required);
    expect(rejects.some((reject) => reject.kind === 'type')).toBe(hasInput);
  });

  it('reject a value outside every list the request has', () => {
    expect(rejects.some((reject) => reject.kind === 'enum')).toBe(facts.enums.size > 0);
  });

  it('reject each numeric and size limit just over its bound', () => {
    for (const name of facts.limits) {
      const covered = rejects.some(
        (reject) =>
          reject.kind === 'limit' && new RegExp(`'${name.replace(/[[\].]/g, '\\$&')}'`).test(reject.message),
      );
      expect(covered, `limit on '${name}'`).toBe(true);
    }
  });

  it('accept each numeric and size limit exactly at its bound', () => {
    const atBound = new Set((cases.accepts ?? []).flatMap((accept) => accept.bounds ?? []));
    expect([...facts.limits].filter((name) => !atBound.has(name))).toEqual([]);
  });
});
