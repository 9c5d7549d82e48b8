import type { TranslateResponse, Translation } from '@glossa/protocol';
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './options.js';
import { type TranslateTextOptions, translateRaw } from './translate.js';
import { Transport } from './transport.js';

/**
 * A typed client for every endpoint of the Glossa service interface.
 *
 * ```ts
 * const client = new GlossaClient({ authKey: process.env.GLOSSA_API_KEY!, serverUrl: 'http://127.0.0.1:8787' });
 * const [result] = await client.translateText(['Hello'], { targetLang: 'es' });
 * ```
 */
export class GlossaClient {
  readonly #config: ResolvedClientOptions;
  readonly #transport: Transport;

  constructor(options: ClientOptions) {
    this.#config = resolveClientOptions(options);
    this.#transport = new Transport(this.#config);
  }

  /** The base URL requests go to (plan-specific unless `serverUrl` was given). */
  get serverUrl(): string {
    return this.#config.baseUrl.href;
  }

  /** Translate one text (resolves to one translation) or several (resolves to one per text, in order). */
  translateText(texts: string, options: TranslateTextOptions): Promise<Translation>;
  translateText(texts: readonly string[], options: TranslateTextOptions): Promise<Translation[]>;
  async translateText(
    texts: string | readonly string[],
    options: TranslateTextOptions,
  ): Promise<Translation | Translation[]> {
    const response = await translateRaw(this.#transport, texts, options);
    return typeof texts === 'string' ? response.translations[0]! : response.translations;
  }

  /** The whole `/v2/translate` response, including the top-level `billed_characters` when requested. */
  translateTextResponse(
    texts: string | readonly string[],
    options: TranslateTextOptions,
  ): Promise<TranslateResponse> {
    return translateRaw(this.#transport, texts, options);
  }
}
