/**
 * The `deepl` engine: the DeepL API (`POST /v2/translate`, `DeepL-Auth-Key`), plain `fetch`.
 *
 * Natively: inline codes as `tag_handling=xml` (`<g id>`/`<x id/>` travel as XML and come back in place),
 * formality (`prefer_more`/`prefer_less`, which DeepL ignores where the language has none), the request's
 * `context`, and glossaries: the request's entries are synced to a DeepL glossary named by their content
 * hash (created once, found again by name after a restart, the previous one of the same Glossa glossaries
 * deleted when the entries change). Not native: custom instructions and style rules (the pipeline applies
 * its deterministic subset; the rest is not sent).
 * Batches: 50 texts and 128 KiB per request (DeepL's limits). 429 and 5xx are retried with backoff; 456
 * (quota exceeded) is final. Settings: `authKey` (`DEEPL_AUTH_KEY`), `serverUrl` (`DEEPL_SERVER_URL`;
 * default api-free.deepl.com for keys ending `:fx`, else api.deepl.com).
 */
import { createHash } from 'node:crypto';
import type { EngineInput, EngineTerms, EngineUsage, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError, TERM_END, TERM_START, UnsupportedPairError } from './engine.js';
import { createHttpClient, HttpStatusError } from './http.js';
import { markTerms } from './verify.js';

export interface DeeplOptions {
  readonly authKey?: string;
  readonly serverUrl?: string;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  /** Extra headers on every request (DeepL's mock reads its session settings from them). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

/** DeepL's source languages (v2/languages?type=source, 2025). */
const SOURCES =
  'ar bg cs da de el en es et fi fr he hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv th tr uk vi zh'.split(
    ' ',
  );
/** Targets as Glossa names them; `en`, `pt` and `zh` are sent as DeepL's default variants. */
const TARGETS = [...SOURCES, 'en-GB', 'en-US', 'pt-BR', 'pt-PT', 'zh-Hans', 'zh-Hant', 'es-419'];
const TARGET_CODES: Record<string, string> = { en: 'EN-US', pt: 'PT-PT', zh: 'ZH-HANS' };
const FORMALITY_TARGETS = new Set(['de', 'fr', 'it', 'es', 'nl', 'pl', 'pt', 'ja', 'ru']);

const MAX_TEXTS = 50;
const MAX_BYTES = 128 * 1024 - 4 * 1024;
const VERSION = 1;

export const deeplTarget = (target: string) => TARGET_CODES[target.toLowerCase()] ?? target.toUpperCase();

/** Texts into requests of at most 50 texts and DeepL's body size, order kept. */
export function deeplBatches(texts: readonly string[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  texts.forEach((text, index) => {
    const size = Buffer.byteLength(JSON.stringify(text)) + 1;
    if (current.length > 0 && (bytes + size > MAX_BYTES || current.length >= MAX_TEXTS)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length > 0) out.push(current);
  return out;
}

export function createDeeplEngine(
  options: DeeplOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): TranslationEngine & { readonly glossaryRequests: () => number } {
  const authKey = options.authKey ?? (env.DEEPL_AUTH_KEY || undefined);
  if (!authKey) throw new TypeError('deepl: DEEPL_AUTH_KEY is not set');
  const serverUrl = (
    options.serverUrl ??
    (env.DEEPL_SERVER_URL ||
      (authKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com'))
  ).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(serverUrl)) {
    throw new TypeError(
      `deepl: expected serverUrl (DEEPL_SERVER_URL) to be an http(s) URL, got ${JSON.stringify(serverUrl)}`,
    );
  }
  const http = createHttpClient({
    engine: 'deepl',
    concurrency: options.concurrency ?? 4,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    secrets: [authKey],
  });
  const headers = {
    authorization: `DeepL-Auth-Key ${authKey}`,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'glossa-server',
    ...options.headers,
  };
  const usage = { requests: 0, characters: 0, tokensIn: 0, tokensOut: 0 };
  let glossaryRequests = 0;
  const pairs: LanguagePair[] = SOURCES.flatMap((source) =>
    TARGETS.filter((target) => target.split('-')[0] !== source).map((target) => ({ source, target })),
  );
  /** Content hash → DeepL glossary id (or the creation in progress). */
  const glossaries = new Map<string, Promise<string | undefined>>();
  /** Glossa glossary group (ids and pair) → the content hash in use, to delete the previous one. */
  const current = new Map<string, { hash: string; id: string }>();
  let listed: Promise<{ glossary_id: string; name: string }[]> | undefined;

  const call = async (method: string, path: string, body?: unknown) => {
    usage.requests++;
    return (
      await http.request(method, serverUrl + path, {
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).body;
  };

  /** The DeepL glossary holding `terms` for the pair: found by name or created; undefined when DeepL refuses. */
  const glossaryFor = (terms: EngineTerms, source: string, target: string): Promise<string | undefined> => {
    const seen = new Set<string>();
    const entries = terms.entries.filter((entry) => {
      const ok =
        entry.source.trim() !== '' &&
        entry.target.trim() !== '' &&
        !/[\t\n\r]/.test(entry.source + entry.target);
      if (!ok || seen.has(entry.source)) return false;
      seen.add(entry.source);
      return true;
    });
    const tsv = entries.map((entry) => `${entry.source}\t${entry.target}`).join('\n');
    const hash = createHash('sha256').update(`${source}>${target}\n${tsv}`).digest('hex').slice(0, 24);
    const name = `glossa-${hash}`;
    const group = `${source}>${target}:${terms.key
      .split('|')
      .map((part) => part.split(':')[0])
      .join('|')}`;
    let found = glossaries.get(hash);
    if (!found) {
      found = (async () => {
        if (entries.length === 0) return undefined;
        listed ??= (async () => {
          glossaryRequests++;
          const answer = (await call('GET', '/v2/glossaries')) as {
            glossaries?: { glossary_id: string; name: string }[];
          };
          return answer?.glossaries ?? [];
        })();
        const existing = (await listed).find((glossary) => glossary.name === name);
        let id = existing?.glossary_id;
        if (!id) {
          glossaryRequests++;
          try {
            const created = (await call('POST', '/v2/glossaries', {
              name,
              source_lang: source.toUpperCase(),
              target_lang: target.split('-')[0]!.toUpperCase(),
              entries: tsv,
              entries_format: 'tsv',
            })) as { glossary_id?: string };
            id = created?.glossary_id;
          } catch (error) {
            // A pair DeepL has no glossaries for: translate without (the chain checks the terms).
            if (error instanceof HttpStatusError && error.status === 400) return undefined;
            throw error;
          }
        }
        const previous = current.get(group);
        if (id && previous && previous.id !== id) {
          glossaryRequests++;
          await call('DELETE', `/v2/glossaries/${previous.id}`).catch(() => {});
          glossaries.delete(previous.hash);
        }
        if (id) current.set(group, { hash, id });
        return id;
      })();
      found.catch(() => glossaries.delete(hash));
      glossaries.set(hash, found);
    }
    return found;
  };

  return {
    name: 'deepl',
    glossaryRequests: () => glossaryRequests,
    pairs: () => pairs,
    plan: deeplBatches,
    fingerprint: (pair) => `deepl/${new URL(serverUrl).host}/v${VERSION}/${pair.source}>${pair.target}`,
    supportsTerms: () => true,
    supportsFormality: (target) => FORMALITY_TARGETS.has(target.split('-')[0]!.toLowerCase()),
    verification: 'full',
    usage: (): EngineUsage => ({ ...usage }),
    async translate(input: EngineInput): Promise<string[]> {
      const target = deeplTarget(input.target);
      const glossaryId = input.terms ? await glossaryFor(input.terms, input.source, input.target) : undefined;
      const outputs = new Array<string>(input.texts.length);
      await Promise.all(
        deeplBatches(input.texts).map(async (indexes) => {
          const text = indexes.map((index) => input.texts[index]!);
          usage.characters += text.reduce((sum, item) => sum + item.length, 0);
          const body: Record<string, unknown> = {
            text,
            source_lang: input.source.toUpperCase(),
            target_lang: target,
          };
          if (input.markup) body.tag_handling = 'xml';
          if (input.formality !== 'default') body.formality = `prefer_${input.formality}`;
          if (input.context) body.context = input.context;
          if (glossaryId) body.glossary_id = glossaryId;
          let answer: unknown;
          try {
            answer = await call('POST', '/v2/translate', body);
          } catch (error) {
            if (error instanceof HttpStatusError && error.status === 456) {
              throw new EngineError(
                'deepl: the DeepL quota of this billing period is used up (456)',
                'deepl',
                { cause: error },
              );
            }
            if (
              error instanceof HttpStatusError &&
              error.status === 400 &&
              /target_lang|source_lang|language/i.test(error.body)
            ) {
              throw new UnsupportedPairError(error.message, 'deepl');
            }
            throw error;
          }
          const list = (answer as { translations?: { text?: unknown }[] } | undefined)?.translations;
          if (!Array.isArray(list) || list.length !== text.length) {
            throw new EngineError(
              `deepl: /v2/translate answered ${Array.isArray(list) ? list.length : 'no'} translations for ${text.length} texts`,
              'deepl',
            );
          }
          indexes.forEach((textIndex, position) => {
            const translated = list[position]?.text;
            if (typeof translated === 'string') {
              outputs[textIndex] = input.terms?.marked
                ? markTerms(translated, input.terms.entries, TERM_START, TERM_END)
                : translated;
            }
          });
        }),
      );
      return outputs;
    },
    close: async () => {},
  };
}
