/** Glossaries, v2 interface (`/v2/glossaries`): one language pair each, not editable. */

import type { GlossaryV2 } from '@glossa/protocol';
import type { RequestOptions } from '../options.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { idSegment, requireString } from '../wire-names.js';
import {
  decodeGlossaryEntries,
  encodeGlossaryEntries,
  type GlossaryEntries,
  type GlossaryEntry,
} from './glossary-entries.js';

export interface CreateGlossaryV2Options extends RequestOptions {
  name: string;
  sourceLang: string;
  targetLang: string;
  entries: GlossaryEntries;
}

export class GlossariesV2 {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  async create(options: CreateGlossaryV2Options): Promise<GlossaryV2> {
    return this.#transport.request<GlossaryV2>({
      method: 'POST',
      path: '/v2/glossaries',
      json: {
        name: requireString('name', options?.name),
        source_lang: requireString('sourceLang', options.sourceLang),
        target_lang: requireString('targetLang', options.targetLang),
        ...encodeGlossaryEntries(options.entries),
      },
      options: requestOptionsOf(options),
    });
  }

  async list(options?: RequestOptions): Promise<GlossaryV2[]> {
    const response = await this.#transport.request<{ glossaries: GlossaryV2[] }>({
      method: 'GET',
      path: '/v2/glossaries',
      options: requestOptionsOf(options),
    });
    return response.glossaries;
  }

  async get(glossaryId: string, options?: RequestOptions): Promise<GlossaryV2> {
    return this.#transport.request<GlossaryV2>({
      method: 'GET',
      path: `/v2/glossaries/${idSegment('glossaryId', glossaryId)}`,
      options: requestOptionsOf(options),
    });
  }

  /** The entries, decoded from the TSV the service sends. */
  async getEntries(glossaryId: string, options?: RequestOptions): Promise<GlossaryEntry[]> {
    const tsv = await this.#transport.request<string>({
      method: 'GET',
      path: `/v2/glossaries/${idSegment('glossaryId', glossaryId)}/entries`,
      accept: 'text/tab-separated-values',
      expect: 'text',
      options: requestOptionsOf(options),
    });
    return decodeGlossaryEntries(tsv);
  }

  async delete(glossaryId: string, options?: RequestOptions): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v2/glossaries/${idSegment('glossaryId', glossaryId)}`,
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }

  /** Deprecated by the interface (use `getLanguages('glossary')`); kept for old servers. */
  async languagePairs(options?: RequestOptions): Promise<{ source_lang: string; target_lang: string }[]> {
    const response = await this.#transport.request<{
      supported_languages: { source_lang: string; target_lang: string }[];
    }>({ method: 'GET', path: '/v2/glossary-language-pairs', options: requestOptionsOf(options) });
    return response.supported_languages;
  }
}
