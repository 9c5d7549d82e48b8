/**
 * The service a project talks to: the one at `url` when given (`GLOSSA_SERVER_URL`, or the config's
 * `service.url`), else the embedded `@glossa/server` started in-process on loopback ports with its data in
 * `dataDir`. The server is loaded only then: it is large, and a warm build never needs it.
 */
import { GlossaClient } from '@glossa/client';
import { KEPT_SOURCE_HEADER, parseKeptSource } from '@glossa/protocol';
import type { ResolvedEngines } from './config-types.js';
import { importOptional } from './optional-package.js';

export interface ServiceOptions {
  readonly url?: string | undefined;
  readonly apiKey?: string | undefined;
  /** The embedded server's data folder. */
  readonly dataDir: string;
  /** The embedded server's engines per target and their providers' settings (config `engines`). */
  readonly engines?: ResolvedEngines | undefined;
  /**
   * Keep the segments every engine failed for `takeUntranslated()` (a run that reports them, as the CLI's).
   * Default false: a long-lived caller that never takes them (a dev server, a runtime backend) holds none.
   */
  readonly collectUntranslated?: boolean;
}

export interface ServiceConnection {
  readonly client: GlossaClient;
  /** The base URL the client sends requests to. */
  readonly url: string;
  /** Whether this process started the server. */
  readonly embedded: boolean;
  /**
   * The segments every engine of their list failed since the last call (answered in the source language:
   * "never worse"), each returned once. Embedded server: with what each engine got wrong. Remote Glossa
   * service: the texts its `X-Glossa-Kept-Source` header names (one attempt, engine `service`); other
   * services do not tell. Collected only with `collectUntranslated`.
   */
  takeUntranslated(): readonly UntranslatedSegment[];
  close(): Promise<void>;
}

export interface UntranslatedSegment {
  readonly source: string;
  readonly target: string;
  /** The segment as sent to the engines (inline codes as `<g id>`/`<x id/>`). */
  readonly text: string;
  readonly attempts: readonly { readonly engine: string; readonly problems: readonly string[] }[];
}

/** Throws a `TypeError` when a remote `url` is given without an `apiKey`. */
export async function connectService(options: ServiceOptions): Promise<ServiceConnection> {
  const { url, apiKey, dataDir } = options;
  if (url !== undefined) {
    if (apiKey === undefined) {
      throw new TypeError(`GLOSSA_API_KEY is not set: a key is needed for the service at ${url}`);
    }
    let untranslated: UntranslatedSegment[] = [];
    // A Glossa service names the texts every engine failed in a header of the translate answer.
    const fetchKept: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const kept = parseKeptSource(response.headers.get(KEPT_SOURCE_HEADER));
      if (kept.length > 0 && typeof init?.body === 'string')
        untranslated.push(...keptSegments(init.body, kept));
      return response;
    };
    const client = new GlossaClient({
      authKey: apiKey,
      serverUrl: url,
      ...(options.collectUntranslated && { fetch: fetchKept }),
    });
    return {
      client,
      url,
      embedded: false,
      takeUntranslated: () => {
        const taken = untranslated;
        untranslated = [];
        return taken;
      },
      close: async () => {},
    };
  }
  const { startServer } = await importOptional(
    '@glossa/server',
    () => import('@glossa/server'),
    'No translation service: GLOSSA_SERVER_URL is not set and the embedded default, @glossa/server, is not ' +
      'installed. Install it (npm install @glossa/server), or set GLOSSA_SERVER_URL and GLOSSA_API_KEY ' +
      "(or the config's service.url) to use a running service.",
  );
  const { engines } = options;
  let untranslated: UntranslatedSegment[] = [];
  const server = await startServer({
    ...(options.collectUntranslated && {
      onKeptSource: (event: UntranslatedSegment) => {
        untranslated.push(event);
      },
    }),
    dataDir,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    ...(apiKey !== undefined && { devKey: apiKey }),
    // Checked by the server (names, providers' settings); a wrong one fails the start with its message.
    ...(engines?.order && { engineOrder: engines.order as never }),
    ...(engines?.providers && { providers: engines.providers as never }),
  });
  const key = apiKey ?? server.devKey;
  const serverUrl = key.endsWith(':fx') ? server.freeUrl : server.url;
  return {
    client: new GlossaClient({ authKey: key, serverUrl }),
    url: serverUrl,
    embedded: true,
    takeUntranslated: () => {
      const taken = untranslated;
      untranslated = [];
      return taken;
    },
    close: () => server.close(),
  };
}

/** The segments of a translate request body (JSON) that the service kept in the source language. */
function keptSegments(body: string, indexes: readonly number[]): UntranslatedSegment[] {
  let sent: { text?: unknown; source_lang?: unknown; target_lang?: unknown };
  try {
    sent = JSON.parse(body) as typeof sent;
  } catch {
    return [];
  }
  if (!Array.isArray(sent.text) || typeof sent.target_lang !== 'string') return [];
  const texts = sent.text as unknown[];
  return indexes.flatMap((index) => {
    const text = texts[index];
    return typeof text === 'string'
      ? [
          {
            source: typeof sent.source_lang === 'string' ? sent.source_lang.toLowerCase() : '',
            target: (sent.target_lang as string).toLowerCase(),
            text,
            attempts: [{ engine: 'service', problems: ['every engine of the service failed'] }],
          },
        ]
      : [];
  });
}
