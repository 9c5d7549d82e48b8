/** Language support lookups, cached per client for up to 1 hour (the interface's recommendation). */
import type { Language, LanguageInclude, LanguageV2, Resource, ResourceName } from '@glossa/protocol';
import type { RequestOptions } from '../options.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { requireString } from '../wire-names.js';

export interface GetLanguagesOptions extends RequestOptions {
  /** `beta` adds beta languages and features, `external` adds third-party features. */
  include?: readonly (LanguageInclude | (string & {}))[] | undefined;
  /** Skip the cache and refresh it. */
  refresh?: boolean | undefined;
}

interface CacheEntry {
  readonly expires: number;
  readonly value: Promise<unknown>;
}

/**
 * Responses are returned as the service sent them: unknown language codes and feature keys pass through
 * untouched. Each caller gets its own copy, so mutating a result never changes the cache.
 */
export class LanguageLookup {
  readonly #transport: Transport;
  readonly #ttl: number;
  readonly #cache = new Map<string, CacheEntry>();

  constructor(transport: Transport, ttl: number) {
    this.#transport = transport;
    this.#ttl = ttl;
  }

  /** `GET /v3/languages?resource=...`: the languages a resource supports, with their features. */
  async getLanguages(
    resource: ResourceName | (string & {}),
    options: GetLanguagesOptions = {},
  ): Promise<Language[]> {
    requireString('resource', resource);
    const include = [...new Set(options.include ?? [])].sort();
    return this.#cached(`languages:${resource}:${include.join(',')}`, options, () =>
      this.#transport.request<Language[]>({
        method: 'GET',
        path: '/v3/languages',
        query: { resource, include },
        options: requestOptionsOf(options),
      }),
    );
  }

  /** `GET /v3/languages/resources`: every resource and the features it knows. */
  async getResources(options: GetLanguagesOptions = {}): Promise<Resource[]> {
    return this.#cached('resources', options, () =>
      this.#transport.request<Resource[]>({
        method: 'GET',
        path: '/v3/languages/resources',
        options: requestOptionsOf(options),
      }),
    );
  }

  /** Deprecated by the interface (use `getLanguages`): `GET /v2/languages?type=source|target`, cached alike. */
  async getLanguagesV2(type: 'source' | 'target', options: GetLanguagesOptions = {}): Promise<LanguageV2[]> {
    if (type !== 'source' && type !== 'target') {
      throw new TypeError(`Expected \`type\` to be 'source' or 'target', got ${JSON.stringify(type)}`);
    }
    return this.#cached(`languages-v2:${type}`, options, () =>
      this.#transport.request<LanguageV2[]>({
        method: 'GET',
        path: '/v2/languages',
        query: { type },
        options: requestOptionsOf(options),
      }),
    );
  }

  /** Forget every cached lookup. */
  clear(): void {
    this.#cache.clear();
  }

  async #cached<T>(key: string, options: GetLanguagesOptions, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    let entry = this.#cache.get(key);
    if (!entry || entry.expires <= now || options.refresh) {
      const value = load();
      entry = { expires: now + this.#ttl, value };
      if (this.#ttl > 0) this.#cache.set(key, entry);
      // A failed lookup is not cached.
      value.catch(() => {
        if (this.#cache.get(key) === entry) this.#cache.delete(key);
      });
    }
    return structuredClone((await entry.value) as T);
  }
}
