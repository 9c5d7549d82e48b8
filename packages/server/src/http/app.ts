import { randomFillSync } from 'node:crypto';
import { createRequestValidator, decodeForm, ERROR_CODES, type Validator } from '@glossa/protocol';
import type { TSchema } from '@sinclair/typebox';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Caller, ServiceContext } from '../context.js';
import { badRequest, ServiceError } from '../errors.js';
import { registerMissingFeatures, type ServerFeature } from '../features.js';
import { JobLimitExceeded } from '../jobs/job-backend.js';
import { buildOpenApiDocument } from '../routes/openapi.js';
import type { Plan } from '../storage/storage.js';
import { authenticate, checkAccess } from './auth.js';
import { bodyObject, registerBodyParsers, unsupportedMediaType } from './body.js';
import type { Route } from './route.js';

/** Body limit of endpoints for which the spec sets none. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** 32 random hex characters, cut from a pool of random bytes refilled 256 ids at a time. */
const traceIdPool = Buffer.alloc(16 * 256);
let traceIdOffset = traceIdPool.length;
function newTraceId(): string {
  if (traceIdOffset === traceIdPool.length) {
    randomFillSync(traceIdPool);
    traceIdOffset = 0;
  }
  traceIdOffset += 16;
  return traceIdPool.toString('hex', traceIdOffset - 16, traceIdOffset);
}

let turnEnd: Promise<void> | undefined;
/**
 * Resolves when the event loop's current turn has run its I/O callbacks (one setImmediate for every
 * request of the turn). Answers wait for it, so the answers of one turn are written together: under load,
 * fewer wake-ups and polls per request (translate, measured: answering each at once took 30% more CPU).
 */
function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnd = undefined;
      resolve();
    }),
  );
  return turnEnd;
}

const validators = new WeakMap<TSchema, Validator<TSchema>>();
function validate(schema: TSchema, value: unknown): unknown {
  let validator = validators.get(schema);
  if (!validator) {
    validator = createRequestValidator(schema);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (!result.ok) throw badRequest(result.message);
  return result.value;
}

/** Maps anything a request can fail with to the interface's error. */
function toServiceError(error: unknown, request: FastifyRequest): ServiceError {
  if (error instanceof ServiceError) return error;
  // A submit past the runner's or a job kind's per-account limit, whichever feature's.
  if (error instanceof JobLimitExceeded)
    return new ServiceError(429, `Too many jobs: ${error.message}.`, ERROR_CODES.tooManyRequests);
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(
        413,
        `Request body too large: the limit is ${request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes.`,
        ERROR_CODES.requestTooLarge,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return unsupportedMediaType(request);
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ServiceError(status, fastifyError.message ?? 'Invalid request.', ERROR_CODES.invalidRequest);
  }
  return new ServiceError(500, 'Internal server error.', ERROR_CODES.internalError);
}

function loggerOption(context: ServiceContext) {
  const logger = context.options.logger;
  if (logger === false) return false;
  return {
    level: logger.level,
    ...(logger.stream ? { stream: logger.stream } : {}),
    // Belt and braces: the request log never writes headers, but a key must not leak if one is added.
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'],
      remove: true,
    },
  };
}

/** The Fastify app of one plan's listener: parsers, trace ids, auth, rate limit, errors and the routes. */
export function buildApp(
  plan: Plan,
  context: ServiceContext,
  routes: readonly Route[],
  features: readonly ServerFeature[],
): FastifyInstance {
  const app = Fastify({
    logger: loggerOption(context),
    genReqId: newTraceId,
    requestIdHeader: false,
    // Fastify's own request lines log the URL; ours (onResponse) logs the path only.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // On close, idle keep-alive connections are closed at once; those with a request in flight when the
    // close began get their answer with `Connection: close` (onSend below); server.ts cuts what is still open
    // after shutdownGraceMs.
    forceCloseConnections: 'idle',
    // A closing server answers 503 itself (onRequest below), in the interface's shape with a trace id.
    return503OnClosing: false,
    // Requests Node's HTTP parser refuses never reach Fastify's handlers: answer them in the same shape.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const tooLarge = (error as { code?: string }).code === 'HPE_HEADER_OVERFLOW';
      const body = JSON.stringify({
        message: tooLarge ? 'Request headers too large.' : 'Malformed HTTP request.',
        code: ERROR_CODES.invalidRequest,
      });
      socket.end(
        `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Trace-ID: ${newTraceId()}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    frameworkErrors: (error, request, reply) => {
      const failure = toServiceError(error, request);
      // Framework errors reach this before routing, so the reply is untyped here.
      const raw = reply as unknown as {
        header(name: string, value: string): typeof raw;
        code(status: number): typeof raw;
        send(body: unknown): void;
      };
      raw
        .header('x-trace-id', request.id ?? newTraceId())
        .code(failure.status)
        .send(failure.toBody());
    },
  });
  app.decorateRequest('caller', undefined);
  app.decorateRequest('plan', plan);
  registerBodyParsers(app);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (closing) reply.header('connection', 'close');
    done();
  });

  const limited = (wait: number) => {
    if (wait > 0) {
      throw new ServiceError(429, 'Too many requests. Retry later.', ERROR_CODES.tooManyRequests, undefined, {
        headers: { 'retry-after': String(wait) },
      });
    }
  };
  /**
   * The caller may make this request: access rule, then rate limit. Throws the interface's error; a
   * promise when the rate limit is shared (Redis).
   */
  const admit = (request: FastifyRequest, route: Route, caller: Caller): void | Promise<void> => {
    request.caller = caller;
    checkAccess(route.endpoint.access, caller);
    const wait = context.rateLimiter?.take(caller.key.id) ?? 0;
    if (typeof wait === 'number') return limited(wait);
    return wait.then(limited);
  };

  // A callback hook, not an async one: a known key is admitted in the same turn, without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-trace-id', request.id);
    const fail = (error: unknown) => done(error as FastifyError);
    try {
      if (closing) {
        throw new ServiceError(
          503,
          'The server is shutting down. Retry later.',
          ERROR_CODES.serviceUnavailable,
          undefined,
          { headers: { connection: 'close' } },
        );
      }
      const route = request.routeOptions.config.route;
      if (!route || route.endpoint.access === 'signed_url') return done();
      const caller = authenticate(request, plan, context);
      if (!(caller instanceof Promise)) {
        const admitted = admit(request, route, caller);
        if (!admitted) return done();
        // Not returned: Fastify would take a returned promise for an async hook and go on twice.
        admitted.then(() => done(), fail);
        return;
      }
      caller.then((found) => admit(request, route, found)).then(() => done(), fail);
    } catch (error) {
      fail(error);
    }
  });

  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (`/v2/glossaries/:glossary_id`), never the URL as sent: bounded label values.
    context.metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  if (context.options.logger !== false)
    app.addHook('onResponse', async (request, reply) => {
      // Path only: a query string could carry a key from an old client; headers and bodies are never logged.
      request.log.info(
        {
          method: request.method,
          path: request.url.split('?')[0],
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          account: request.caller?.account.id,
        },
        'request',
      );
    });

  app.setErrorHandler((error, request, reply) => {
    const failure = toServiceError(error, request);
    if (failure.status >= 500)
      request.log.error({ err: error, path: request.url.split('?')[0] }, 'request failed');
    reply.code(failure.status).headers(failure.headers).send(failure.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' });
  });

  for (const feature of features) feature.plugin?.(app, context);
  registerMissingFeatures(app, features);

  app.get('/openapi.json', async () => buildOpenApiDocument(routes, context.urls));
  // Operations: liveness, readiness (storage and Redis answer), Prometheus metrics. No key needed; the
  // metrics hold no key, account or text.
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    try {
      await context.ready();
      return { status: 'ready' };
    } catch (error) {
      return reply.code(503).send({
        message: `Not ready: ${error instanceof Error ? error.message : String(error)}`,
        code: ERROR_CODES.serviceUnavailable,
      });
    }
  });
  if (context.options.metrics) {
    app.get('/metrics', async (_request, reply) => {
      const text = await context.metrics.registry.metrics();
      return reply.type(context.metrics.registry.contentType).send(text);
    });
  }

  for (const route of routes) {
    const endpoint = route.endpoint;
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      bodyLimit: route.bodyLimit ?? endpoint.maxBodyBytes ?? DEFAULT_BODY_LIMIT,
      config: { route },
      ...(route.compiledResponse && endpoint.response
        ? { schema: { response: { [endpoint.status]: endpoint.response } } }
        : {}),
      handler: async (request, reply) => {
        const query = endpoint.query
          ? validate(endpoint.query, decodeQuery(request.raw.url?.split('?')[1] ?? '', endpoint.query))
          : undefined;
        const params = endpoint.params ? validate(endpoint.params, request.params) : undefined;
        // A multipart body is read and validated by its route (the fields arrive with the file stream).
        const body =
          endpoint.body && !endpoint.encodings?.includes('multipart')
            ? validate(endpoint.body, bodyObject(request, endpoint.body, endpoint.encodings ?? ['json']))
            : undefined;
        const result = await route.handle({
          caller: request.caller as Caller,
          query,
          params,
          body,
          request,
          reply,
          context,
        });
        // A handler that sent its own reply (a file, another success status) keeps it.
        if (reply.sent) return reply;
        reply.code(endpoint.status);
        await endOfTurn();
        if (route.compiledResponse) {
          // Sent as bytes: a string would be measured for its UTF-8 length, then encoded again by the socket.
          return reply
            .type('application/json; charset=utf-8')
            .send(Buffer.from(reply.serialize(result) as string));
        }
        return result;
      },
    });
  }
  return app;
}

function decodeQuery(raw: string, schema: TSchema): unknown {
  try {
    decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw badRequest('Query string is not valid: a percent-escape is malformed or not UTF-8.');
  }
  return decodeForm(raw, schema);
}
