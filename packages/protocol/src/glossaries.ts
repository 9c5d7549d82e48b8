import { type Static, Type } from '@sinclair/typebox';
import { DateTime, LanguageCode, Name, StringEnum, Uuid } from './common.js';
import { ENTRIES_FORMATS } from './glossary-entries.js';
import { MAX_GLOSSARY_BYTES } from './limits.js';

// Byte limits (entries ≤ 10 MiB, each term and the name ≤ 1024 UTF-8 bytes) are checked by
// `parseGlossaryEntries` and `checkGlossaryName`; JSON Schema lengths count characters, not bytes.

const Entries = Type.String({
  minLength: 1,
  description: `TSV or CSV text, at most ${MAX_GLOSSARY_BYTES} bytes`,
});
const EntriesFormat = StringEnum(ENTRIES_FORMATS);

export const GlossaryIdParams = Type.Object({ glossary_id: Uuid }, { additionalProperties: false });

/** POST /v2/glossaries body. */
export const CreateGlossaryV2Request = Type.Object(
  {
    name: Name,
    source_lang: LanguageCode,
    target_lang: LanguageCode,
    entries: Entries,
    entries_format: EntriesFormat,
  },
  { $id: 'CreateGlossaryV2Request', additionalProperties: false },
);
export type CreateGlossaryV2Request = Static<typeof CreateGlossaryV2Request>;

/** A v2 glossary. */
export const GlossaryV2 = Type.Object(
  {
    glossary_id: Uuid,
    name: Type.String(),
    ready: Type.Boolean(),
    source_lang: Type.String(),
    target_lang: Type.String(),
    creation_time: DateTime,
    entry_count: Type.Integer({ minimum: 0 }),
  },
  { $id: 'GlossaryV2' },
);
export type GlossaryV2 = Static<typeof GlossaryV2>;

export const GlossaryV2List = Type.Object({ glossaries: Type.Array(GlossaryV2) }, { $id: 'GlossaryV2List' });
export type GlossaryV2List = Static<typeof GlossaryV2List>;

/** The only `Accept` value of GET /v2/glossaries/{id}/entries (other values: 415). */
export const GLOSSARY_ENTRIES_CONTENT_TYPE = 'text/tab-separated-values';

/** A dictionary of a v3 glossary as sent: one language pair and its entries. */
export const DictionaryInput = Type.Object(
  {
    source_lang: LanguageCode,
    target_lang: LanguageCode,
    entries: Entries,
    entries_format: EntriesFormat,
  },
  { $id: 'DictionaryInput', additionalProperties: false },
);
export type DictionaryInput = Static<typeof DictionaryInput>;

/**
 * POST /v3/glossaries body. Without `dictionaries` (or with none) an empty glossary is created, as the public
 * service does (its clients send no `dictionaries` field then); dictionaries are added later with PUT.
 */
export const CreateGlossaryRequest = Type.Object(
  { name: Name, dictionaries: Type.Optional(Type.Array(DictionaryInput)) },
  { $id: 'CreateGlossaryRequest', additionalProperties: false },
);
export type CreateGlossaryRequest = Static<typeof CreateGlossaryRequest>;

/** PATCH /v3/glossaries/{id} body: a new `name` and/or one dictionary whose entries are merged. */
export const UpdateGlossaryRequest = Type.Object(
  {
    name: Type.Optional(Name),
    dictionaries: Type.Optional(Type.Array(DictionaryInput, { minItems: 1, maxItems: 1 })),
  },
  { $id: 'UpdateGlossaryRequest', additionalProperties: false, minProperties: 1 },
);
export type UpdateGlossaryRequest = Static<typeof UpdateGlossaryRequest>;

/** A dictionary as v3 responses describe it. */
export const DictionaryInfo = Type.Object({
  source_lang: Type.String(),
  target_lang: Type.String(),
  entry_count: Type.Integer({ minimum: 0 }),
});
export type DictionaryInfo = Static<typeof DictionaryInfo>;

/** A v3 glossary. */
export const Glossary = Type.Object(
  {
    glossary_id: Uuid,
    name: Type.String(),
    dictionaries: Type.Array(DictionaryInfo),
    creation_time: DateTime,
  },
  { $id: 'Glossary' },
);
export type Glossary = Static<typeof Glossary>;

export const GlossaryList = Type.Object({ glossaries: Type.Array(Glossary) }, { $id: 'GlossaryList' });
export type GlossaryList = Static<typeof GlossaryList>;

/** Query naming one dictionary: GET entries and DELETE dictionaries of a v3 glossary. */
export const DictionaryQuery = Type.Object(
  { source_lang: LanguageCode, target_lang: LanguageCode },
  { $id: 'DictionaryQuery', additionalProperties: false },
);
export type DictionaryQuery = Static<typeof DictionaryQuery>;

/** GET /v3/glossaries/{id}/entries response: the entries as TSV. */
export const GlossaryEntriesResponse = Type.Object(
  {
    dictionaries: Type.Array(
      Type.Object({
        source_lang: Type.String(),
        target_lang: Type.String(),
        entries: Type.String(),
        entries_format: Type.Literal('tsv'),
      }),
    ),
  },
  { $id: 'GlossaryEntriesResponse' },
);
export type GlossaryEntriesResponse = Static<typeof GlossaryEntriesResponse>;
