/**
 * `GlossaBackend`: an i18next backend that serves a namespace in any language from the source catalog,
 * translating through core (cache first; what is missing in one batched run, not one request per key).
 * Reads in the same tick (or `batchWindowMs`) share a run. Callback API: `callback(err, retry)`, where
 * `retry` is true only for errors worth retrying (connection, timeout, 429, 5xx); without a callback
 * the methods return promises.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  createMemoryStore,
  createTranslationCache,
  createTranslationRun,
  recordingCache,
  type TranslationCache,
  type TranslationRunOptions,
  type Translator,
} from '@glossa/core';
import { PSEUDO_LOCALES } from '@glossa/protocol';
import { builtKey, reuseBuilt, storeBuilt } from './built.js';
import { buildCatalog, type Catalog, checkedCatalog } from './catalog.js';
import { coveredKeys, machineOnly, overlayHuman, withoutCovered } from './human.js';
import { lazyTranslator, type ServiceOptions } from './service.js';
import { type NamespaceSource, sourceOf } from './source.js';

export interface GlossaBackendOptions {
  /** Language of the source catalogs. Default `en`. */
  readonly sourceLang?: string;
  /** The source catalog of a namespace (or use `sourcePath`). */
  readonly loadSource?: (namespace: string) => Catalog | Promise<Catalog>;
  /** A JSON file per namespace: `{{ns}}` is replaced, e.g. `locales/en/{{ns}}.json`. */
  readonly sourcePath?: string;
  /**
   * The app's own catalogs, as i18next-fs-backend's `loadPath` (`locales/{{lng}}/{{ns}}.json`): the one of a
   * language is read first and its values served unchanged; only the keys missing there are translated. A
   * missing file is an empty catalog. Also the source (with `sourceLang`) when `sourcePath` is not set.
   */
  readonly loadPath?: string;
  /** Bundled human catalogs (`{ [lng]: { [ns]: catalog } }`, as i18next's `resources`), read like `loadPath`. */
  readonly resources?: Readonly<Record<string, Readonly<Record<string, Catalog>>>>;
  /**
   * Where the machine translated keys of a language are written for review (`{{lng}}`, `{{ns}}`), e.g.
   * `locales/{{lng}}/{{ns}}.machine.json`; merge a reviewed file back with `mergeReviewed`.
   */
  readonly reviewPath?: string;
  /** Default: `service` (or `GLOSSA_SERVER_URL`), else the embedded server. */
  readonly translator?: Translator;
  readonly service?: ServiceOptions;
  /** Default: an in-memory cache (pass `openConfiguredCache(...)` of @glossa/core to persist). */
  readonly cache?: TranslationCache;
  readonly requestOptions?: TranslationRunOptions['requestOptions'];
  /**
   * The `manifest.json` @glossa/vite emits with built catalogs (locale → namespace → file, relative to
   * the manifest): a namespace it lists for a language is served from that file without translating.
   */
  readonly manifest?: string;
  /** Gather reads for this long before translating them together. Default 0 (the same tick). */
  readonly batchWindowMs?: number;
}

type Callback<T> = (error: Error | null, result?: T | boolean) => void;
type Resources = Record<string, Record<string, Catalog>>;
interface Wanted {
  readonly namespaces: Set<string>;
  readonly waiters: { resolve: (r: Record<string, Catalog>) => void; reject: (e: unknown) => void }[];
}
interface I18nextServices {
  readonly resourceStore?: { addResource(lng: string, ns: string, key: string, value: string): void };
}

export class GlossaBackend {
  static readonly type = 'backend';
  readonly type = 'backend';
  /** Tells i18next which convention `read` and `create` follow: callbacks when it calls them. */
  readonly callbackApi = true;
  private options: GlossaBackendOptions = {};
  private services: I18nextServices = {};
  private keySeparator = '.';
  private translator: Translator & { close?: () => Promise<void> } = lazyTranslator();
  private cache: TranslationCache | undefined;
  private readonly sources = new Map<string, Promise<NamespaceSource>>();
  private pending = new Map<string, Wanted>();
  private manifest: Promise<{ locales?: Record<string, Record<string, string>> }> | undefined;
  private scheduled = false;
  /** Languages served per namespace, so a key created later is translated into them too. */
  private readonly served = new Map<string, Set<string>>();

  constructor(
    services?: unknown,
    options?: GlossaBackendOptions,
    i18nextOptions?: { keySeparator?: unknown },
  ) {
    if (options) this.init(services, options, i18nextOptions);
  }

  init(
    services: unknown,
    options: GlossaBackendOptions = {},
    i18nextOptions: { keySeparator?: unknown } = {},
  ) {
    if (!options.loadSource && !options.sourcePath && !options.loadPath && !options.resources) {
      throw new TypeError(
        'GlossaBackend: set `loadSource(namespace)`, `sourcePath` (e.g. "locales/en/{{ns}}.json"), `loadPath` (e.g. "locales/{{lng}}/{{ns}}.json") or `resources`',
      );
    }
    this.services = (services ?? {}) as I18nextServices;
    this.options = options;
    if (typeof i18nextOptions.keySeparator === 'string') this.keySeparator = i18nextOptions.keySeparator;
    this.translator = options.translator ?? lazyTranslator(options.service);
    this.cache = options.cache; // default: an in-memory cache, made on first use
    this.sources.clear();
  }

  get sourceLang(): string {
    return this.options.sourceLang ?? 'en';
  }

  read(language: string, namespace: string, callback?: Callback<Catalog>): Promise<Catalog | undefined> {
    const result = this.want(language, [namespace]).then((catalogs) => catalogs[namespace]!);
    return settle(result, callback);
  }

  readMulti(languages: string[], namespaces: string[], callback?: Callback<Resources>) {
    const result = Promise.all(languages.map((l) => this.want(l, namespaces))).then((all) =>
      Object.fromEntries(languages.map((l, i) => [l, all[i]!])),
    );
    return settle(result, callback);
  }

  /**
   * saveMissing: adds `key` to the namespace's source catalog (in memory) and translates it into every
   * language already served, adding the result to i18next's store.
   */
  create(
    languages: string[],
    namespace: string,
    key: string,
    fallbackValue: string,
    callback?: Callback<void>,
  ) {
    const result = (async () => {
      const catalog = (await this.source(namespace)).catalog();
      setPath(catalog, key.split(this.keySeparator), fallbackValue);
      this.sources.set(
        namespace,
        Promise.resolve(sourceOf(JSON.stringify(catalog), this.extractOptions(namespace))),
      );
      const targets = [...(this.served.get(namespace) ?? [])].filter((l) => !languages.includes(l));
      await Promise.all(
        targets.map(async (language) => {
          const catalog = (await this.want(language, [namespace]))[namespace]!;
          const value = getPath(catalog, key.split(this.keySeparator));
          if (typeof value === 'string')
            this.services.resourceStore?.addResource(language, namespace, key, value);
        }),
      );
    })();
    return settle(result, callback);
  }

  /** Stops the embedded server if one was started (the cache given in options is yours to close). */
  async close(): Promise<void> {
    await this.translator.close?.();
  }

  private want(language: string, namespaces: string[]): Promise<Record<string, Catalog>> {
    return new Promise((resolve, reject) => {
      const wanted = this.pending.get(language) ?? { namespaces: new Set<string>(), waiters: [] };
      for (const ns of namespaces) wanted.namespaces.add(ns);
      wanted.waiters.push({ resolve, reject });
      this.pending.set(language, wanted);
      if (this.scheduled) return;
      this.scheduled = true;
      // The same tick: setImmediate (a 0 ms setTimeout waits at least 1 ms).
      const window = this.options.batchWindowMs ?? 0;
      if (window > 0) setTimeout(() => this.flush(), window);
      else setImmediate(() => this.flush());
    });
  }

  private flush() {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const [language, wanted] of batch) {
      this.translate(language, [...wanted.namespaces]).then(
        (catalogs) => {
          for (const w of wanted.waiters) w.resolve(catalogs);
        },
        (error: unknown) => {
          for (const w of wanted.waiters) w.reject(error);
        },
      );
    }
  }

  private async translate(language: string, requested: string[]): Promise<Record<string, Catalog>> {
    const built = await this.fromManifest(language, requested);
    const namespaces = requested.filter((ns) => !(ns in built));
    if (namespaces.length === 0) return built;
    const sources = await Promise.all(namespaces.map((ns) => this.source(ns)));
    for (const ns of namespaces) {
      const served = this.served.get(ns) ?? new Set<string>();
      this.served.set(ns, served.add(language));
    }
    if (this.isSource(language)) {
      return { ...built, ...Object.fromEntries(namespaces.map((ns, i) => [ns, sources[i]!.catalog()])) };
    }
    const cache = this.translationCache();
    const humans = await Promise.all(namespaces.map((ns) => this.human(language, ns)));
    const reused = await Promise.all(
      sources.map((source, i) => reuseBuilt(cache, this.resultKey(source, language, humans[i]?.hash))),
    );
    // Extracted only on a miss: a hit is keyed on the source's content hash. Keys the app's own catalog
    // for the language has are not translated.
    const extractions = sources.map((source, i) => {
      if (reused[i] !== undefined) return undefined;
      const extraction = source.extraction();
      const human = humans[i]?.catalog;
      return human
        ? withoutCovered(extraction, coveredKeys(human, extraction, this.keySeparator))
        : extraction;
    });
    const todo = extractions.filter((e) => e !== undefined);
    if (todo.length === 0) {
      return { ...built, ...Object.fromEntries(namespaces.map((ns, i) => [ns, reused[i]!])) };
    }
    const recording = recordingCache(cache); // every translation the run read or wrote: the entries' proof
    const errors: Error[] = [];
    const run = createTranslationRun({
      translator: this.translator,
      cache: recording.cache,
      sourceLang: this.sourceLang,
      targetLangs: [language],
      ...(this.options.requestOptions && { requestOptions: this.options.requestOptions }),
      onEvent: (event) => {
        if (event.type === 'request' && event.error) errors.push(event.error);
      },
    });
    const { targets, report } = await run.translate({ segments: todo.flatMap((s) => s.segments) });
    if (errors.length > 0) {
      // A request failed: fail the read (the translated part is in the cache, so a retry is cheap).
      throw new BackendReadError(`${language}: ${report.failures.length} strings not translated`, errors[0]!);
    }
    const localeTargets = targets.get(language)!;
    const out: Record<string, Catalog> = { ...built };
    for (const [i, ns] of namespaces.entries()) {
      if (reused[i] !== undefined) {
        out[ns] = reused[i];
        continue;
      }
      let problems = 0;
      const extraction = extractions[i]!;
      const built = buildCatalog(extraction, localeTargets, {
        locale: language,
        keySeparator: this.keySeparator,
        onProblem: () => problems++,
      });
      const human = humans[i]?.catalog;
      out[ns] = human ? overlayHuman(built, human, extraction, this.keySeparator) : built;
      if (this.options.reviewPath !== undefined) {
        const review = human ? machineOnly(built, human, extraction, this.keySeparator) : built;
        await writeAtomically(this.path(this.options.reviewPath, language, ns), review);
      }
      const failed = report.failures.some((f) => f.file === extraction.file);
      if (!failed && problems === 0) {
        await storeBuilt(
          cache,
          this.resultKey(sources[i]!, language, humans[i]?.hash),
          out[ns],
          recording.used,
        );
      }
    }
    return out;
  }

  /** The key of a built catalog in the cache: the hash of everything it is made from but translations. */
  private resultKey(source: NamespaceSource, language: string, humanHash = ''): string {
    return builtKey([
      source.file,
      source.hash,
      this.sourceLang,
      language,
      this.keySeparator,
      this.options.requestOptions ?? {},
      humanHash,
    ]);
  }

  /** The app's own catalog of a language (bundled, or from `loadPath`); undefined when it has none. */
  private async human(
    language: string,
    namespace: string,
  ): Promise<{ catalog: Catalog; hash: string } | undefined> {
    const bundled = this.options.resources?.[language]?.[namespace];
    if (bundled)
      return {
        catalog: bundled,
        hash: sourceOf(JSON.stringify(bundled), this.extractOptions(namespace)).hash,
      };
    if (this.options.loadPath === undefined) return undefined;
    const path = this.path(this.options.loadPath, language, namespace);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const source = sourceOf(text, this.extractOptions(namespace));
    return { catalog: checkedCatalog(text, path), hash: source.hash };
  }

  private path(pattern: string, language: string, namespace: string): string {
    return pattern.replaceAll('{{ns}}', namespace).replaceAll('{{lng}}', language);
  }

  private async fromManifest(language: string, namespaces: string[]): Promise<Record<string, Catalog>> {
    const path = this.options.manifest;
    if (path === undefined) return {};
    this.manifest ??= readFile(path, 'utf8').then(
      (text) => JSON.parse(text) as { locales?: Record<string, Record<string, string>> },
    );
    const files = (await this.manifest).locales?.[language] ?? {};
    const listed = namespaces.filter((ns) => typeof files[ns] === 'string');
    const catalogs = await Promise.all(
      listed.map(
        async (ns) => JSON.parse(await readFile(join(dirname(path), files[ns]!), 'utf8')) as Catalog,
      ),
    );
    return Object.fromEntries(listed.map((ns, i) => [ns, catalogs[i]!]));
  }

  /**
   * The source language itself, a regional variant of it (`en-US` for `en`: served as written, not
   * translated), or i18next's `dev` default fallback. A pseudo-locale (`en-XA`) is translated.
   */
  private isSource(language: string): boolean {
    const primary = (code: string) => code.toLowerCase().split(/[-_]/)[0];
    const pseudo = PSEUDO_LOCALES.some((p) => p.toLowerCase() === language.toLowerCase());
    return language === 'dev' || (!pseudo && primary(language) === primary(this.sourceLang));
  }

  private translationCache(): TranslationCache {
    this.cache ??= createTranslationCache([createMemoryStore()]);
    return this.cache;
  }

  private source(namespace: string): Promise<NamespaceSource> {
    let source = this.sources.get(namespace);
    if (!source) {
      // A failed load, or a text that is not a catalog, is read again next time.
      const forget = () => this.sources.delete(namespace);
      source = this.loadSource(namespace).then((text) =>
        sourceOf(text, { ...this.extractOptions(namespace), onInvalid: forget }),
      );
      source.catch(forget);
      this.sources.set(namespace, source);
    }
    return source;
  }

  /** The source catalog's JSON text (parsed and extracted only when a read needs it). */
  private async loadSource(namespace: string): Promise<string> {
    if (this.options.loadSource) return JSON.stringify(await this.options.loadSource(namespace));
    const pattern = this.options.sourcePath ?? this.options.loadPath;
    if (pattern === undefined) {
      const bundled = this.options.resources?.[this.sourceLang]?.[namespace];
      if (!bundled)
        throw new TypeError(
          `GlossaBackend: \`resources\` has no '${this.sourceLang}' catalog for '${namespace}'`,
        );
      return JSON.stringify(bundled);
    }
    return readFile(this.path(pattern, this.sourceLang, namespace), 'utf8');
  }

  private extractOptions(namespace: string) {
    return { file: `${namespace}.json`, keySeparator: this.keySeparator };
  }
}

/** A read failed because a request to the service failed; `cause` is the client's error. */
export class BackendReadError extends Error {
  override name = 'BackendReadError';
  readonly code = 'backend_read';
  constructor(message: string, cause: Error) {
    super(`${message}: ${cause.message}`, { cause });
  }
  /** Worth retrying: the service's error was transient (connection, timeout, 429, 5xx). */
  get retryable(): boolean {
    return (this.cause as { retryable?: boolean }).retryable === true;
  }
}

/** Writes a catalog as JSON through a temporary file and a rename. */
async function writeAtomically(path: string, catalog: Catalog): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(catalog, null, 2)}\n`);
  await rename(temporary, path);
}

/** Promise style without a callback; with one, `callback(err, retry)` and a promise that never rejects. */
function settle<T>(promise: Promise<T>, callback: Callback<T> | undefined): Promise<T | undefined> {
  if (!callback) return promise;
  return promise.then(
    (value) => {
      callback(null, value);
      return value;
    },
    (error: unknown) => {
      const err = error instanceof Error ? error : new Error(String(error));
      callback(err, (err as { retryable?: boolean }).retryable === true);
      return undefined;
    },
  );
}

function setPath(catalog: Catalog, path: string[], value: string) {
  let node = catalog;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
    node = node[part] as Catalog;
  }
  node[path.at(-1)!] ??= value;
}

function getPath(catalog: Catalog, path: string[]): unknown {
  let node: unknown = catalog;
  for (const part of path) node = (node as Catalog | undefined)?.[part];
  return node;
}
