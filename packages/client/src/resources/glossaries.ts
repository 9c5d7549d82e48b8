/** Glossaries, v3 interface (`/v3/glossaries`): multilingual, editable. Entries are data (see glossary-entries). */

import type { Glossary, GlossaryEntriesResponse } from '@glossa/protocol';
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

export interface DictionarySpec {
  sourceLang: string;
  targetLang: string;
  entries: GlossaryEntries;
}

export interface DictionaryEntries {
  sourceLang: string;
  targetLang: string;
  entries: GlossaryEntry[];
}

function dictionaryBody(dictionary: DictionarySpec) {
  return {
    source_lang: requireString('sourceLang', dictionary?.sourceLang),
    target_lang: requireString('targetLang', dictionary.targetLang),
    ...encodeGlossaryEntries(dictionary.entries),
  };
}

export class Glossaries {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Create a glossary with one or more dictionaries (one per language pair). */
  async create(
    name: string,
    dictionaries: readonly DictionarySpec[],
    options?: RequestOptions,
  ): Promise<Glossary> {
    requireString('name', name);
    if (!Array.isArray(dictionaries) || dictionaries.length === 0) {
      throw new TypeError('Expected at least one dictionary');
    }
    return this.#transport.request<Glossary>({
      method: 'POST',
      path: '/v3/glossaries',
      json: { name, dictionaries: dictionaries.map(dictionaryBody) },
      options: requestOptionsOf(options),
    });
  }

  async list(options?: RequestOptions): Promise<Glossary[]> {
    const response = await this.#transport.request<{ glossaries: Glossary[] }>({
      method: 'GET',
      path: '/v3/glossaries',
      options: requestOptionsOf(options),
    });
    return response.glossaries;
  }

  async get(glossaryId: string, options?: RequestOptions): Promise<Glossary> {
    return this.#transport.request<Glossary>({
      method: 'GET',
      path: `/v3/glossaries/${idSegment('glossaryId', glossaryId)}`,
      options: requestOptionsOf(options),
    });
  }

  /** The entries of one dictionary, decoded. */
  async getEntries(
    glossaryId: string,
    sourceLang: string,
    targetLang: string,
    options?: RequestOptions,
  ): Promise<DictionaryEntries[]> {
    const response = await this.#transport.request<GlossaryEntriesResponse>({
      method: 'GET',
      path: `/v3/glossaries/${idSegment('glossaryId', glossaryId)}/entries`,
      query: {
        source_lang: requireString('sourceLang', sourceLang),
        target_lang: requireString('targetLang', targetLang),
      },
      options: requestOptionsOf(options),
    });
    return response.dictionaries.map((dictionary) => ({
      sourceLang: dictionary.source_lang,
      targetLang: dictionary.target_lang,
      entries: decodeGlossaryEntries(dictionary.entries),
    }));
  }

  /** Rename, and/or merge entries into one dictionary (existing sources get the new target). */
  async update(
    glossaryId: string,
    changes: { name?: string; dictionary?: DictionarySpec },
    options?: RequestOptions,
  ): Promise<Glossary> {
    const body: Record<string, unknown> = {};
    if (changes?.name !== undefined) body['name'] = requireString('name', changes.name);
    if (changes?.dictionary !== undefined) body['dictionaries'] = [dictionaryBody(changes.dictionary)];
    if (Object.keys(body).length === 0) throw new TypeError('Expected `name` or `dictionary` to change');
    return this.#transport.request<Glossary>({
      method: 'PATCH',
      path: `/v3/glossaries/${idSegment('glossaryId', glossaryId)}`,
      json: body,
      options: requestOptionsOf(options),
    });
  }

  /** Create or replace the dictionary of one language pair. */
  async replaceDictionary(
    glossaryId: string,
    dictionary: DictionarySpec,
    options?: RequestOptions,
  ): Promise<unknown> {
    return this.#transport.request<unknown>({
      method: 'PUT',
      path: `/v3/glossaries/${idSegment('glossaryId', glossaryId)}/dictionaries`,
      json: dictionaryBody(dictionary),
      options: requestOptionsOf(options),
    });
  }

  async deleteDictionary(
    glossaryId: string,
    sourceLang: string,
    targetLang: string,
    options?: RequestOptions,
  ): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v3/glossaries/${idSegment('glossaryId', glossaryId)}/dictionaries`,
      query: {
        source_lang: requireString('sourceLang', sourceLang),
        target_lang: requireString('targetLang', targetLang),
      },
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }

  async delete(glossaryId: string, options?: RequestOptions): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v3/glossaries/${idSegment('glossaryId', glossaryId)}`,
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }
}
