/**
 * The public OpenAPI description (fixtures/deepl-openapi, see its README) as a response checker: which of its
 * operations an exchange is, and whether the answer matches the response schema it declares for that status.
 */
import { readFileSync } from 'node:fs';
import AjvModule, { type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Exchange } from './helpers.js';

interface Operation {
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export const description = JSON.parse(
  readFileSync(new URL('./fixtures/deepl-openapi/openapi.json', import.meta.url), 'utf8'),
) as {
  info: { version: string };
  paths: Record<string, Record<string, { operationId: string; responses: Operation['responses'] }>>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export const OPERATIONS: readonly Operation[] = Object.entries(description.paths).flatMap(
  ([template, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        responses: operation.responses,
      })),
);

/** The description's operation of a request, or undefined when the description has none. */
export function operationOf(method: string, path: string): Operation | undefined {
  const matches = OPERATIONS.filter(
    (operation) => operation.method === method && operation.pattern.test(path),
  );
  // A literal segment beats a parameter (`/v3/glossaries/{id}` vs. a longer literal path).
  return matches.sort(
    (a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length,
  )[0];
}

// CommonJS packages: their default export is the module object under NodeNext.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

// OpenAPI 3.0 schemas: `nullable`, `example` and `x-` keys are not JSON Schema keywords; strict mode is off.
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, discriminator: true });
addFormats(ajv);
ajv.addSchema(description, 'description');
const compiled = new Map<string, ValidateFunction | undefined>();

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A deviation of an exchange from the description, or undefined when it conforms. */
export function deviation(exchange: Exchange): string | undefined {
  const operation = operationOf(exchange.method, exchange.path);
  const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
  if (!operation) return `${where}: no operation of the description`;
  const declared = operation.responses[String(exchange.status)] ?? operation.responses.default;
  if (!declared) {
    const statuses = Object.keys(operation.responses).join(', ');
    return `${where}: status not declared for ${operation.operationId} (declared: ${statuses})`;
  }
  const media = exchange.contentType.split(';')[0]!.trim();
  if (!declared.content || exchange.status === 204) return undefined;
  const types = Object.keys(declared.content);
  // A file download is declared as application/octet-stream, "the content type used in the response
  // corresponds to the document type": any type is the declared one there.
  const fileDownload = types.length === 1 && types[0] === 'application/octet-stream';
  const type =
    types.find((candidate) => candidate === media) ??
    (types.includes('*/*') ? '*/*' : fileDownload ? types[0] : undefined);
  if (!type) return `${where}: content type '${media}' not declared (declared: ${types.join(', ')})`;
  if (!type.includes('json') || !declared.content[type]?.schema) return undefined;
  const key = `${operation.template}|${operation.method}|${exchange.status}|${type}`;
  if (!compiled.has(key)) {
    const status = operation.responses[String(exchange.status)] ? String(exchange.status) : 'default';
    const ref = `description#/${pointer('paths', operation.template, operation.method.toLowerCase(), 'responses', status, 'content', type, 'schema')}`;
    compiled.set(key, ajv.compile({ $ref: ref }));
  }
  const validate = compiled.get(key)!;
  let body: unknown;
  try {
    body = JSON.parse(exchange.body.toString('utf8'));
  } catch {
    return `${where}: body is not JSON`;
  }
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  return `${where}: ${errors.slice(0, 5).join('; ')}`;
}
