import type { EndpointDefinition } from '@glossa/protocol';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, ServiceContext } from '../context.js';
import type { Plan } from '../storage/storage.js';

// Every request knows its caller (set by the auth hook) and every route its table entry (route config).
declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined;
    /** The plan whose listener (base URL) received the request. */
    plan: Plan;
  }
  interface FastifyContextConfig {
    route?: Route;
  }
}

type StaticOf<T> = T extends TSchema ? Static<T> : undefined;

/** What a route handler receives: the caller and the validated query, body and path parameters. */
export interface RouteInput<E extends EndpointDefinition> {
  readonly caller: Caller;
  readonly query: StaticOf<E['query']>;
  readonly body: StaticOf<E['body']>;
  readonly params: StaticOf<E['params']>;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly context: ServiceContext;
}

/** One endpoint of the protocol's table and the code that answers it; the handler's result is the JSON body. */
export interface Route {
  readonly endpoint: EndpointDefinition;
  /** Body limit in bytes when the endpoint's own (or the default) is not the right one. */
  readonly bodyLimit?: number;
  /**
   * Serialize the success response with a serializer compiled from the endpoint's response schema
   * (fast-json-stringify: 2-3x faster than JSON.stringify on translations). Only for endpoints whose schema
   * names every field they answer: a field the schema does not name would be left out.
   */
  readonly compiledResponse?: boolean;
  /**
   * A JSON or form body's strings named `field` (in a form also `list[0].field`), from `min` UTF-16 units on,
   * reach the handler as UTF-8 bytes outside the V8 heap when the body is parsed on the parsing thread
   * (`largeText` in body.ts).
   */
  readonly largeText?: { readonly field: string; readonly min: number };
  handle(input: RouteInput<EndpointDefinition>): Promise<unknown>;
}

export function defineRoute<E extends EndpointDefinition>(
  endpoint: E,
  handle: (input: RouteInput<E>) => Promise<unknown>,
  options: { compiledResponse?: boolean } = {},
): Route {
  return { endpoint, ...options, handle: handle as unknown as Route['handle'] };
}
