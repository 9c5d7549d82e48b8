import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  createOpenApiDocument,
  ENDPOINT_LIST,
  ENDPOINTS,
  errorStatuses,
  INTERFACE_VERSION,
} from '../src/index.js';

const checkedIn = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
const fresh = createOpenApiDocument();

type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
};
const paths = fresh['paths'] as Record<string, Record<string, Operation>>;
const operations = Object.values(paths).flatMap((methods) => Object.values(methods));

describe('openapi.json', () => {
  it('is current: the checked-in file equals a fresh generation (run `pnpm --filter @glossa/protocol generate`)', () => {
    expect(checkedIn).toBe(`${JSON.stringify(fresh, null, 2)}\n`);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(fresh));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('is refused by the validator when broken (the check can fail)', async () => {
    const broken = structuredClone(fresh) as { paths: Record<string, Record<string, Operation>> };
    broken.paths['/v3/languages']!['get']!.parameters![0]!.in = 'body';
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('describes only the endpoints and servers it is given (a server serving part of the interface)', () => {
    const document = createOpenApiDocument({
      endpoints: [ENDPOINTS.getUsage],
      servers: [{ url: 'http://127.0.0.1:1234', description: 'paid plan' }],
    });
    expect(Object.keys(document['paths'] as object)).toEqual(['/v2/usage']);
    expect(document['servers']).toEqual([{ url: 'http://127.0.0.1:1234', description: 'paid plan' }]);
  });

  it('has one operation per endpoint, with its operationId', () => {
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(
      Object.keys(ENDPOINTS).sort(),
    );
    expect((fresh['info'] as { version: string }).version).toBe(INTERFACE_VERSION);
  });

  it('declares the Service-Auth-Key scheme, and no auth on signed URLs', () => {
    const components = fresh['components'] as {
      securitySchemes: Record<string, { name: string; in: string }>;
    };
    expect(components.securitySchemes['ServiceAuthKey']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(fresh['security']).toEqual([{ ServiceAuthKey: [] }]);
    for (const endpoint of ENDPOINT_LIST) {
      const operation = operations.find((candidate) => candidate.operationId === endpoint.operationId)!;
      expect(operation.security, endpoint.operationId).toEqual(
        endpoint.access === 'signed_url' ? [] : undefined,
      );
    }
  });

  it('gives every error response the ErrorBody schema and the X-Trace-ID header', () => {
    const responses = (
      fresh['components'] as { responses: Record<string, { headers: object; content: object }> }
    ).responses;
    for (const response of Object.values(responses)) {
      expect(response.headers).toHaveProperty('X-Trace-ID');
      expect(JSON.stringify(response.content)).toContain('#/components/schemas/ErrorBody');
    }
    const translate = paths['/v2/translate']!['post']!;
    expect(Object.keys(translate.responses)).toEqual([
      '200',
      ...errorStatuses(ENDPOINTS.translateText).map(String),
    ]);
    expect(errorStatuses(ENDPOINTS.translateText)).toEqual([400, 403, 413, 415, 429, 456, 500]);
    expect(errorStatuses(ENDPOINTS.downloadDocument)).toEqual([400, 403, 404, 415, 429, 500, 503]);
  });

  it('describes bodies in their encodings: JSON and form, multipart with a file, raw uploads', () => {
    expect(Object.keys(paths['/v2/translate']!['post']!.requestBody!.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    const document = paths['/v2/document']!['post']!.requestBody!.content['multipart/form-data'] as {
      schema: { required: string[] };
    };
    expect(document.schema.required).toEqual(['target_lang', 'file']);
    expect(
      Object.keys(paths['/v3/translation_memories/jobs/{job_id}/upload']!['put']!.requestBody!.content),
    ).toEqual(['*/*']);
    const header = paths['/v2/translate']!['post']!.parameters!.find((p) => p.in === 'header');
    expect(header?.name).toBe('X-Service-Reporting-Tag');
  });
});
