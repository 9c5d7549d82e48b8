/**
 * The contract between the server's spine and its feature packages. The spine serves translate, glossaries,
 * style rules, memories, languages, usage and analytics; a feature package (`@glossa/server-documents`,
 * `@glossa/server-language-tools`, `@glossa/server-voice`) exports a `ServerFeature` that `createServer`
 * plugs in: its routes, the resources it adds to `/v3/languages`, and what it runs beside them. Features
 * depend on the spine (through `@glossa/server/feature`), never the reverse: an endpoint whose feature is not
 * installed answers 501 with the name of the package to install.
 */
import {
  DOCUMENT_ENDPOINTS,
  type EndpointDefinition,
  ERROR_CODES,
  LANGUAGE_TOOL_ENDPOINTS,
  VOICE_ENDPOINTS,
} from '@glossa/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.js';
import { ServiceError } from './errors.js';
import type { Route } from './http/route.js';
import type { FeatureResources } from './languages.js';

/** What a feature runs beside its routes (a job queue, a database); closed when the server closes. */
export interface RunningFeature {
  /**
   * Resolves once the feature can answer its first request at full speed (models loaded, threads warm);
   * rejects with the reason it cannot. `/ready` answers 503 until every feature's `ready()` resolves; it
   * waits a second for each, so a feature still loading may reject at once or stay pending.
   */
  ready?(): Promise<void>;
  close(): Promise<void>;
}

export interface ServerFeature {
  /** The package that provides the feature, e.g. `@glossa/server-documents`. */
  readonly name: string;
  /** The endpoints it answers, each bound to its entry of the protocol's `ENDPOINTS` table. */
  readonly routes: readonly Route[];
  /** Resources it adds to `/v3/languages` and `/v3/languages/resources`, with their languages. */
  readonly resources?: FeatureResources;
  /** A Fastify plugin registered on both plan listeners, for what is not a table route (a WebSocket). */
  readonly plugin?: (app: FastifyInstance, context: ServiceContext) => void;
  /**
   * Called once by `createServer` when the context exists, before the job runner starts; the result is
   * closed with the server. A throw (or rejection) stops `createServer` (e.g. `refuseEarlierJobStores`).
   */
  start?(context: ServiceContext, log: FastifyBaseLogger): RunningFeature | Promise<RunningFeature>;
}

interface OptionalFeature {
  readonly name: string;
  readonly what: string;
  readonly endpoints: Readonly<Record<string, EndpointDefinition>>;
}

/** The feature packages the spine knows of, to tell a caller what to install for an endpoint. */
export const OPTIONAL_FEATURES: readonly OptionalFeature[] = [
  { name: '@glossa/server-documents', what: 'Document translation', endpoints: DOCUMENT_ENDPOINTS },
  {
    name: '@glossa/server-language-tools',
    what: 'Text improvement, language detection and quality evaluation',
    endpoints: LANGUAGE_TOOL_ENDPOINTS,
  },
  { name: '@glossa/server-voice', what: 'Voice', endpoints: VOICE_ENDPOINTS },
];

/**
 * Registers, for every endpoint of an optional feature package that is not installed (and that no other
 * installed feature serves), a route that
 * answers 501 naming the package to install. The key is checked first (the app's hooks see the endpoint's
 * access rule); the body is neither parsed nor validated, whatever its type.
 */
export function registerMissingFeatures(app: FastifyInstance, installed: readonly ServerFeature[]): void {
  const served = new Set(installed.flatMap((feature) => feature.routes.map((route) => route.endpoint)));
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => {
      payload.resume();
      done(null, undefined);
    });
    for (const feature of OPTIONAL_FEATURES) {
      // An installed package serves its endpoints, those of its plugin (the voice WebSocket) included.
      if (installed.some((plugged) => plugged.name === feature.name)) continue;
      const message = `${feature.what} is not installed on this server: install ${feature.name} and pass it to createServer (glossa-server from @glossa/server-full has every feature).`;
      for (const endpoint of Object.values(feature.endpoints)) {
        if (served.has(endpoint)) continue;
        const route: Route = { endpoint, handle: async () => undefined };
        scope.route({
          method: endpoint.method,
          url: endpoint.path,
          config: { route },
          handler: async () => {
            throw new ServiceError(501, message, ERROR_CODES.featureNotInstalled);
          },
        });
      }
    }
  });
}

/** Checks the `features` option of `createServer`. */
export function checkFeatures(value: unknown): readonly ServerFeature[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every((item) => typeof item?.name === 'string' && Array.isArray(item.routes))
  ) {
    throw new TypeError(
      `features: expected an array of server features (e.g. documentsFeature() from @glossa/server-documents), got ${String(value)}`,
    );
  }
  const names = value.map((feature: ServerFeature) => feature.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new TypeError(`features: ${twice} is given twice`);
  return Object.freeze([...value]);
}
