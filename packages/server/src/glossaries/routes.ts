/**
 * Glossary endpoints, v2 (one language pair per glossary) and v3 (several dictionaries, editable). A v2
 * request sees the glossaries that hold exactly one dictionary; v3 sees all of them.
 */
import {
  checkGlossaryName,
  ENDPOINTS,
  formatGlossaryEntries,
  GLOSSARY_ENTRIES_CONTENT_TYPE,
  type Glossary,
  type GlossaryV2,
  MAX_GLOSSARY_BYTES,
} from '@glossa/protocol';
import type { FastifyRequest } from 'fastify';
import { badRequest, notFound, ServiceError } from '../errors.js';
import { largeText } from '../http/body.js';
import { defineRoute, type Route } from '../http/route.js';
import { withBuildBudget } from '../memory-budget.js';
import { glossaryPair, parseEntries } from './languages.js';
import { type GlossaryRecord, type NewDictionary, newDictionary, tooLarge } from './store.js';
import { parseOnThread } from './thread.js';

/**
 * Entries longer than this (UTF-16 units) are parsed on the glossary thread (`thread.ts`); shorter ones
 * here, where parsing costs less than the trip (64 Ki characters, about 1,000 entries: a few ms).
 */
export const INLINE_ENTRIES_LENGTH = 64 * 1024;

/**
 * Memory a parse on the thread takes while it runs, per character sent: measured 94 MiB of peak RSS for
 * 10.5 M characters (160,000 entries), the text in both threads, its lines, entries and TSV included; in
 * the full server from the sources 144 MB (abuse-full.test.ts, GLOSSA_MEMORY_TRACE=1, the thread started
 * anew).
 */
const PARSE_BYTES_PER_CHAR = 15;

/**
 * Entries of up to 10 MiB must fit after encoding: JSON writes each tab and line break as two bytes, and
 * a form body writes each byte outside ASCII as three.
 */
export const GLOSSARY_BODY_LIMIT = 3 * MAX_GLOSSARY_BYTES + 64 * 1024;

const isForm = (request: FastifyRequest) =>
  String(request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('application/x-www-form-urlencoded');

const checkName = (name: string) => {
  const problem = checkGlossaryName(name);
  if (problem) throw badRequest(problem);
  return name;
};

const v2Glossary = (glossary: GlossaryRecord): GlossaryV2 | undefined => {
  const [dictionary, ...others] = glossary.dictionaries;
  if (!dictionary || others.length > 0) return undefined;
  return {
    glossary_id: glossary.id,
    name: glossary.name,
    ready: true,
    source_lang: dictionary.source,
    target_lang: dictionary.target,
    creation_time: glossary.createdAt,
    entry_count: dictionary.entryCount,
  };
};

const v3Glossary = (glossary: GlossaryRecord): Glossary => ({
  glossary_id: glossary.id,
  name: glossary.name,
  dictionaries: glossary.dictionaries.map((dictionary) => ({
    source_lang: dictionary.source,
    target_lang: dictionary.target,
    entry_count: dictionary.entryCount,
  })),
  creation_time: glossary.createdAt,
});

const missing = (id: string) => notFound(`Glossary '${id}' not found.`);

/**
 * A dictionary as sent, parsed and checked (400 naming the line). Large entries are parsed on the glossary
 * thread, after reserving their memory from the budget for builds (one at a time per account; 503 with
 * `Retry-After` when it is taken). Entries that came as bytes from the body's parsing thread (`largeText`:
 * a large JSON or form body) stay bytes there and back: the dictionary is their canonical TSV's UTF-8, which the
 * store's database thread writes (store.ts), so the text never becomes a string of the event loop's heap.
 */
async function dictionaryInput(
  input: {
    source_lang: string;
    target_lang: string;
    entries: string;
    entries_format: 'tsv' | 'csv';
  },
  account: string,
  request: FastifyRequest,
): Promise<NewDictionary> {
  const pair = glossaryPair(input.source_lang, input.target_lang);
  const large = largeText(request, input.entries);
  // Entries over the size limit are refused here at once (their UTF-8 bytes, counted natively).
  if (large && large.bytes.length > MAX_GLOSSARY_BYTES) throw tooLarge();
  if (
    !large &&
    (input.entries.length <= INLINE_ENTRIES_LENGTH ||
      Buffer.byteLength(input.entries, 'utf8') > MAX_GLOSSARY_BYTES)
  )
    return newDictionary(pair, parseEntries(input.entries, input.entries_format, pair));
  const chars = large?.chars ?? input.entries.length;
  const parsed = await withBuildBudget(account, PARSE_BYTES_PER_CHAR * chars, () =>
    parseOnThread(large?.bytes ?? input.entries, input.entries_format, {
      source_lang: pair.source,
      target_lang: pair.target,
    }),
  );
  if (!parsed.ok) throw badRequest(parsed.message, parsed.detail);
  return { ...pair, tsv: parsed.tsv, entryCount: parsed.count };
}

/** Whether `Accept` allows TSV: absent, `*\/*`, `text/*` or the TSV type itself. */
function acceptsTsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    return type === '*/*' || type === 'text/*' || type === GLOSSARY_ENTRIES_CONTENT_TYPE;
  });
}

const v2Routes: Route[] = [
  defineRoute(ENDPOINTS.createGlossaryV2, async ({ body, caller, context, request }) => {
    const dictionary = await dictionaryInput(body, caller.account.id, request);
    const glossary = await context.resources.glossaries.create(caller.account.id, checkName(body.name), [
      dictionary,
    ]);
    return v2Glossary(glossary);
  }),
  defineRoute(ENDPOINTS.listGlossariesV2, async ({ caller, context }) => {
    const glossaries = await context.resources.glossaries.list(caller.account.id);
    return { glossaries: glossaries.map(v2Glossary).filter((glossary) => glossary !== undefined) };
  }),
  defineRoute(ENDPOINTS.getGlossaryV2, async ({ params, caller, context }) => {
    const glossary = await context.resources.glossaries.get(caller.account.id, params.glossary_id);
    const v2 = glossary && v2Glossary(glossary);
    if (!v2) throw missing(params.glossary_id);
    return v2;
  }),
  defineRoute(ENDPOINTS.deleteGlossaryV2, async ({ params, caller, context }) => {
    const glossary = await context.resources.glossaries.get(caller.account.id, params.glossary_id);
    if (!glossary || !v2Glossary(glossary)) throw missing(params.glossary_id);
    await context.resources.glossaries.delete(caller.account.id, params.glossary_id);
  }),
  defineRoute(ENDPOINTS.getGlossaryEntriesV2, async ({ params, caller, context, request, reply }) => {
    const id = params.glossary_id;
    const glossary = await context.resources.glossaries.get(caller.account.id, id);
    const v2 = glossary && v2Glossary(glossary);
    if (!v2) throw missing(id);
    if (!acceptsTsv(request)) {
      throw new ServiceError(
        415,
        `Unsupported Accept '${String(request.headers.accept).slice(0, 100)}': glossary entries are served as ${GLOSSARY_ENTRIES_CONTENT_TYPE}.`,
        'invalid_content_type',
      );
    }
    const entries = await context.resources.glossaries.entries(
      caller.account.id,
      id,
      v2.source_lang,
      v2.target_lang,
    );
    reply.type(`${GLOSSARY_ENTRIES_CONTENT_TYPE}; charset=utf-8`);
    return formatGlossaryEntries(entries ?? []);
  }),
];

const v3Routes: Route[] = [
  defineRoute(ENDPOINTS.createGlossary, async ({ body, caller, context, request }) => {
    const name = checkName(body.name);
    // The description requires `dictionaries`. A JSON body can send an empty list; a form body cannot, so
    // there (as the official client sends it) no `dictionaries` field means none.
    if (body.dictionaries === undefined && !isForm(request))
      throw badRequest(
        "Parameter 'dictionaries' is required: send a list of dictionaries ([] creates an empty glossary).",
      );
    const dictionaries: NewDictionary[] = [];
    for (const input of body.dictionaries ?? [])
      dictionaries.push(await dictionaryInput(input, caller.account.id, request));
    const pairs = new Set<string>();
    for (const dictionary of dictionaries) {
      const pair = `${dictionary.source}-${dictionary.target}`;
      if (pairs.has(pair)) throw badRequest(`Dictionary ${pair} is given twice.`);
      pairs.add(pair);
    }
    return v3Glossary(await context.resources.glossaries.create(caller.account.id, name, dictionaries));
  }),
  defineRoute(ENDPOINTS.listGlossaries, async ({ caller, context }) => ({
    glossaries: (await context.resources.glossaries.list(caller.account.id)).map(v3Glossary),
  })),
  defineRoute(ENDPOINTS.getGlossary, async ({ params, caller, context }) => {
    const glossary = await context.resources.glossaries.get(caller.account.id, params.glossary_id);
    if (!glossary) throw missing(params.glossary_id);
    return v3Glossary(glossary);
  }),
  defineRoute(ENDPOINTS.updateGlossary, async ({ params, body, caller, context, request }) => {
    const store = context.resources.glossaries;
    const id = params.glossary_id;
    const account = caller.account.id;
    if (!(await store.get(account, id))) throw missing(id);
    // Check everything before writing anything.
    const name = body.name === undefined ? undefined : checkName(body.name);
    const dictionary =
      body.dictionaries?.[0] && (await dictionaryInput(body.dictionaries[0], account, request));
    if (name !== undefined) await store.rename(account, id, name);
    if (dictionary) await store.putDictionary(account, id, dictionary, true);
    const glossary = await store.get(account, id);
    if (!glossary) throw missing(id);
    return v3Glossary(glossary);
  }),
  defineRoute(ENDPOINTS.deleteGlossary, async ({ params, caller, context }) => {
    if (!(await context.resources.glossaries.delete(caller.account.id, params.glossary_id))) {
      throw missing(params.glossary_id);
    }
  }),
  defineRoute(ENDPOINTS.getGlossaryEntries, async ({ params, query, caller, context }) => {
    const pair = glossaryPair(query.source_lang, query.target_lang);
    const entries = await context.resources.glossaries.entries(
      caller.account.id,
      params.glossary_id,
      pair.source,
      pair.target,
    );
    if (!entries) {
      if (!(await context.resources.glossaries.get(caller.account.id, params.glossary_id)))
        throw missing(params.glossary_id);
      throw notFound(`Glossary '${params.glossary_id}' has no ${pair.source}-${pair.target} dictionary.`);
    }
    return {
      dictionaries: [
        {
          source_lang: pair.source,
          target_lang: pair.target,
          entries: formatGlossaryEntries(entries),
          entries_format: 'tsv',
        },
      ],
    };
  }),
  defineRoute(ENDPOINTS.replaceGlossaryDictionary, async ({ params, body, caller, context, request }) => {
    const dictionary = await dictionaryInput(body, caller.account.id, request);
    if (
      !(await context.resources.glossaries.putDictionary(
        caller.account.id,
        params.glossary_id,
        dictionary,
        false,
      ))
    ) {
      throw missing(params.glossary_id);
    }
    return {
      source_lang: dictionary.source,
      target_lang: dictionary.target,
      entry_count: dictionary.entryCount,
    };
  }),
  defineRoute(ENDPOINTS.deleteGlossaryDictionary, async ({ params, query, caller, context }) => {
    const pair = glossaryPair(query.source_lang, query.target_lang);
    const id = params.glossary_id;
    if (
      !(await context.resources.glossaries.deleteDictionary(caller.account.id, id, pair.source, pair.target))
    ) {
      if (!(await context.resources.glossaries.get(caller.account.id, id))) throw missing(id);
      throw notFound(`Glossary '${id}' has no ${pair.source}-${pair.target} dictionary.`);
    }
  }),
];

/**
 * Every glossary route, with a body limit that lets 10 MiB of entries through; large entries of a JSON or form
 * body come as bytes (`dictionaryInput`).
 */
export const GLOSSARY_ROUTES: readonly Route[] = [...v2Routes, ...v3Routes].map((route) => ({
  ...route,
  bodyLimit: GLOSSARY_BODY_LIMIT,
  largeText: { field: 'entries', min: INLINE_ENTRIES_LENGTH + 1 },
}));
