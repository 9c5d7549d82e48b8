/**
 * The service a project talks to: the one at `url` when given (`GLOSSA_SERVER_URL`, or the config's
 * `service.url`), else the embedded `@glossa/server` started in-process on loopback ports with its data in
 * `dataDir`. The server is loaded only then: it is large, and a warm build never needs it.
 */
import { GlossaClient } from '@glossa/client';
import { KEPT_SOURCE_HEADER, LEFT_WORDS_HEADER, parseKeptSource, parseLeftWords } from '@glossa/protocol';
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
   * Keep the segments every engine failed for `takeUntranslated()`, and those translated with words left in
   * the source language for `takeLeftWords()` (a run that reports them, as the CLI's). Default false: a
   * long-lived caller that never takes them (a dev server, a runtime backend) holds none.
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
  /**
   * The texts translated with ordinary words left in the source language inside ("Open the color picker."
   * → "Abierto el color picker.") since the last call, each returned once: warnings, not failures (the
   * translation stands). Embedded server: per segment sent to the engines. Remote Glossa service: per text
   * of a request, from its `X-Glossa-Left-Words` header; other services do not tell. Collected only with
   * `collectUntranslated`.
   */
  takeLeftWords(): readonly LeftWordsSegment[];
  close(): Promise<void>;
}

export interface LeftWordsSegment {
  readonly source: string;
  readonly target: string;
  /** The segment (embedded) or the request's text (remote) as sent, inline codes as `<g id>`/`<x id/>`. */
  readonly text: string;
  /** The words left in the source language, as they stand in the output. */
  readonly words: readonly string[];
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
    let leftWords: LeftWordsSegment[] = [];
    // A Glossa service names the texts every engine failed, and those translated with words left in the
    // source language, in headers of the translate answer.
    const fetchKept: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const kept = parseKeptSource(response.headers.get(KEPT_SOURCE_HEADER));
      const left = parseLeftWords(response.headers.get(LEFT_WORDS_HEADER));
      if (typeof init?.body === 'string' && kept.length + left.size > 0) {
        const sent = sentTexts(init.body);
        if (sent) {
          untranslated.push(...keptSegments(sent, kept));
          leftWords.push(...leftSegments(sent, left));
        }
      }
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
      takeLeftWords: () => {
        const taken = leftWords;
        leftWords = [];
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
  let leftWords: LeftWordsSegment[] = [];
  const server = await startServer({
    ...(options.collectUntranslated && {
      // The server's event: a segment every engine failed, or one translated with `left` words.
      onKeptSource: (event: UntranslatedSegment & { readonly left?: readonly string[] }) => {
        if (event.left === undefined) untranslated.push(event);
        else
          leftWords.push({ source: event.source, target: event.target, text: event.text, words: event.left });
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
    takeLeftWords: () => {
      const taken = leftWords;
      leftWords = [];
      return taken;
    },
    close: () => server.close(),
  };
}

interface SentTexts {
  readonly source: string;
  readonly target: string;
  readonly texts: readonly unknown[];
}

/** The texts and languages of a translate request body (JSON), or undefined. */
function sentTexts(body: string): SentTexts | undefined {
  let sent: { text?: unknown; source_lang?: unknown; target_lang?: unknown };
  try {
    sent = JSON.parse(body) as typeof sent;
  } catch {
    return undefined;
  }
  if (!Array.isArray(sent.text) || typeof sent.target_lang !== 'string') return undefined;
  return {
    source: typeof sent.source_lang === 'string' ? sent.source_lang.toLowerCase() : '',
    target: sent.target_lang.toLowerCase(),
    texts: sent.text as unknown[],
  };
}

/** The segments of a translate request that the service kept in the source language. */
function keptSegments(sent: SentTexts, indexes: readonly number[]): UntranslatedSegment[] {
  return indexes.flatMap((index) => {
    const text = sent.texts[index];
    return typeof text === 'string'
      ? [
          {
            source: sent.source,
            target: sent.target,
            text,
            attempts: [{ engine: 'service', problems: ['every engine of the service failed'] }],
          },
        ]
      : [];
  });
}

/** The texts of a translate request that the service translated with words left in the source language. */
function leftSegments(sent: SentTexts, left: ReadonlyMap<number, readonly string[]>): LeftWordsSegment[] {
  return [...left].flatMap(([index, words]) => {
    const text = sent.texts[index];
    return typeof text === 'string' ? [{ source: sent.source, target: sent.target, text, words }] : [];
  });
}
