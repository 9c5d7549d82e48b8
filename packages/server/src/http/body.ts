import { type BodyEncoding, decodeForm, ERROR_CODES } from '@glossa/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, ServiceError } from '../errors.js';

/** A form-encoded body, kept undecoded until the route knows its schema (`decodeForm` needs it). */
export class FormBody {
  constructor(readonly params: URLSearchParams) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8.');
  }
}

function parseJson(bytes: Buffer): unknown {
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw badRequest('Request body is empty.');
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'nesting too deep';
    throw new ServiceError(400, `Request body is not valid JSON: ${reason}`, ERROR_CODES.invalidJson);
  }
}

/** Checks every percent-escape decodes to valid UTF-8 (URLSearchParams would silently put U+FFFD instead). */
function parseForm(bytes: Buffer): FormBody {
  const text = decodeUtf8(bytes);
  for (const part of text.split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw badRequest('Form body is not valid: a percent-escape is malformed or not UTF-8.');
    }
  }
  return new FormBody(new URLSearchParams(text));
}

/**
 * Only JSON and form bodies are parsed; any other content type fails with Fastify's media-type error,
 * which the error handler turns into 415 `invalid_content_type`. Routes with other encodings (multipart,
 * uploads) register their own parsers in their own plugin scope.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJson(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (_request, body, done) => {
      try {
        done(null, parseForm(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  // Upload endpoints (a TMX file to a signed URL) and multipart endpoints (a document) take their content
  // type and read the raw stream themselves.
  app.addContentTypeParser('*', (request, _payload, done) => {
    const encodings = request.routeOptions.config.route?.endpoint.encodings ?? [];
    if (encodings.includes('upload') || encodings.includes('multipart')) done(null, undefined);
    else done(unsupportedMediaType(request), undefined);
  });
}

/** The request's body as the object its endpoint's schema describes (form bodies decoded against it). */
export function bodyObject(
  request: FastifyRequest,
  schema: TSchema,
  encodings: readonly BodyEncoding[],
): unknown {
  const body = request.body;
  if (body instanceof FormBody) {
    if (!encodings.includes('form')) throw unsupportedMediaType(request);
    return decodeForm(body.params, schema);
  }
  if (body === undefined) return {};
  if (!encodings.includes('json')) throw unsupportedMediaType(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('Request body must be a JSON object.');
  return body;
}

export function unsupportedMediaType(request: FastifyRequest): ServiceError {
  const type = request.headers['content-type'];
  return new ServiceError(
    415,
    `Unsupported media type${type ? ` '${String(type).slice(0, 100)}'` : ''}: send application/json or application/x-www-form-urlencoded.`,
    ERROR_CODES.invalidContentType,
  );
}
