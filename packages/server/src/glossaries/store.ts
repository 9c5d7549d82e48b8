/**
 * Glossaries in the resource database: a glossary has a name and dictionaries, one per language pair
 * (root languages: an `en` dictionary serves en-US and en-GB). Entries are kept as TSV, which is lossless
 * because no term may hold a tab or a line break.
 */
import { randomUUID } from 'node:crypto';
import {
  formatGlossaryEntries,
  type GlossaryEntry,
  MAX_GLOSSARIES_PER_ACCOUNT,
  MAX_GLOSSARY_BYTES,
} from '@glossa/protocol';
import { badRequest, type ServiceError } from '../errors.js';
import type { ResourceDatabase } from '../storage/resource-db.js';
import { nextTurn } from '../turns.js';
import {
  dbThreadThresholds,
  onDbThread,
  type ThreadDictionary,
  threadWritesSettled,
  utf8InSlices,
} from './db-thread.js';
import { type EntryTable, EntryTableBuilder } from './entries.js';

export interface DictionaryRecord {
  readonly source: string;
  readonly target: string;
  readonly entryCount: number;
}

export interface GlossaryRecord {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Increases on every edit; compiled matchers are cached by it. */
  readonly version: number;
  readonly dictionaries: readonly DictionaryRecord[];
}

/**
 * A dictionary to write: its entries as canonical TSV (`formatGlossaryEntries`: one `source<TAB>target` a
 * line, no blank lines). A large one, as parsed on the glossary thread, is its UTF-8 bytes, so that 10 MiB of
 * entries reach the database thread without one object per entry, nor one string, on the event loop.
 */
export interface NewDictionary {
  readonly source: string;
  readonly target: string;
  readonly tsv: string | Uint8Array;
  readonly entryCount: number;
}

/** `dictionary`'s TSV as text (a store that writes it as such: the event loop's, PostgreSQL). */
export const tsvText = (dictionary: NewDictionary): string =>
  typeof dictionary.tsv === 'string' ? dictionary.tsv : new TextDecoder().decode(dictionary.tsv);

/** A dictionary of `entries`. */
export const newDictionary = (
  pair: { readonly source: string; readonly target: string },
  entries: readonly GlossaryEntry[],
): NewDictionary => ({
  source: pair.source,
  target: pair.target,
  tsv: formatGlossaryEntries(entries),
  entryCount: entries.length,
});

/** `dictionary`'s entries merged into the ones of `current` (TSV): a source given again takes its new target. */
export function mergedDictionary(current: string, dictionary: NewDictionary): NewDictionary {
  const merged = new Map(parseTsv(current).map((entry) => [entry.source, entry.target]));
  for (const entry of parseTsv(tsvText(dictionary))) merged.set(entry.source, entry.target);
  return newDictionary(
    dictionary,
    [...merged].map(([source, target]) => ({ source, target })),
  );
}

export interface GlossaryStore {
  create(accountId: string, name: string, dictionaries: readonly NewDictionary[]): Promise<GlossaryRecord>;
  list(accountId: string): Promise<GlossaryRecord[]>;
  get(accountId: string, id: string): Promise<GlossaryRecord | undefined>;
  /** The entries of one dictionary, or undefined when the glossary or the dictionary does not exist. */
  entries(
    accountId: string,
    id: string,
    source: string,
    target: string,
  ): Promise<GlossaryEntry[] | undefined>;
  /** `entries` held compactly (`EntryTable`: no object per entry), for compiling a large glossary. */
  entryTable(accountId: string, id: string, source: string, target: string): Promise<EntryTable | undefined>;
  rename(accountId: string, id: string, name: string): Promise<boolean>;
  /** Merges (`merge`) or replaces the dictionary's entries; creates the dictionary when missing. */
  putDictionary(accountId: string, id: string, dictionary: NewDictionary, merge: boolean): Promise<boolean>;
  deleteDictionary(accountId: string, id: string, source: string, target: string): Promise<boolean>;
  delete(accountId: string, id: string): Promise<boolean>;
}

/** A glossary's row in both databases (its dictionaries are rows of their own). */
export interface GlossaryRow {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A stored dictionary (one `source<TAB>target` line an entry) as its entries, at once. */
export function parseTsv(tsv: string): GlossaryEntry[] {
  const table = new EntryTableBuilder();
  if (tsv !== '') table.lines(tsv, 0, Number.POSITIVE_INFINITY, true);
  return table.done().toArray();
}

/** Lines parsed per turn of the event loop by `tsvTableInSlices`. */
const TSV_SLICE = 2_000;

/**
 * A stored dictionary as an `EntryTable`, `TSV_SLICE` lines per turn of the event loop: the 160,000 lines of
 * a 10 MiB glossary take a few tens of ms to scan, which would hold every other request up at once.
 */
export async function tsvTableInSlices(tsv: string): Promise<EntryTable> {
  const table = new EntryTableBuilder();
  if (tsv === '') return table.done();
  for (let at = 0; ; ) {
    at = table.lines(tsv, at, TSV_SLICE, true);
    if (at > tsv.length) return table.done();
    await nextTurn();
  }
}

/** `parseTsv` a slice per turn of the event loop (`tsvTableInSlices`), as objects. */
export const parseTsvInSlices = async (tsv: string): Promise<GlossaryEntry[]> =>
  (await tsvTableInSlices(tsv)).toArray();

/** UTF-8 bytes decoded per turn of the event loop by `tsvBytesTableInSlices` (whole lines: up to a newline). */
const TSV_BYTES_SLICE = 256 * 1024;

/**
 * A dictionary stored as UTF-8 bytes (the database thread's read) as an `EntryTable`, a slice of whole lines
 * per turn of the event loop: each slice is decoded on its own and kept as one of the table's texts, so the
 * 10 MB of a large dictionary are never one string (decoding it whole and flattening that string cost one
 * stall of 50 to 300 ms).
 */
export async function tsvBytesTableInSlices(bytes: Uint8Array): Promise<EntryTable> {
  const table = new EntryTableBuilder();
  if (bytes.length === 0) return table.done(bytes);
  const decoder = new TextDecoder();
  for (let at = 0; at < bytes.length; ) {
    // A newline byte is never inside a multi-byte character, so each slice decodes on its own.
    const newline = bytes.indexOf(0x0a, Math.min(bytes.length, at + TSV_BYTES_SLICE));
    const end = newline === -1 ? bytes.length : newline + 1;
    const last = end === bytes.length;
    // A slice but the last ends with its newline: its lines are whole, the loop stops at its end.
    table.lines(decoder.decode(bytes.subarray(at, end)), 0, Number.POSITIVE_INFINITY, last);
    at = end;
    if (!last) await nextTurn();
  }
  return table.done(bytes);
}

/** `tsvBytesTableInSlices` as objects. */
export const parseTsvBytesInSlices = async (bytes: Uint8Array): Promise<GlossaryEntry[]> =>
  (await tsvBytesTableInSlices(bytes)).toArray();

/** UTF-8 bytes of `text` (natively: a 10 MiB string is counted in a few ms). */
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export function tooLarge(): ServiceError {
  return badRequest('Glossary too large.', `Entries exceed ${MAX_GLOSSARY_BYTES} bytes.`);
}

export function createGlossaryStore(db: ResourceDatabase): GlossaryStore {
  const sql = {
    count: db.prepare('SELECT COUNT(*) AS n FROM glossaries WHERE account_id = ?'),
    insert: db.prepare(
      'INSERT INTO glossaries (id, account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ),
    list: db.prepare('SELECT * FROM glossaries WHERE account_id = ? ORDER BY created_at, id'),
    get: db.prepare('SELECT * FROM glossaries WHERE account_id = ? AND id = ?'),
    dictionaries: db.prepare(
      `SELECT source_lang, target_lang, entry_count FROM glossary_dictionaries WHERE glossary_id = ?
       ORDER BY source_lang, target_lang`,
    ),
    entries: db.prepare(
      'SELECT entries FROM glossary_dictionaries WHERE glossary_id = ? AND source_lang = ? AND target_lang = ?',
    ),
    entryCount: db.prepare(
      'SELECT entry_count FROM glossary_dictionaries WHERE glossary_id = ? AND source_lang = ? AND target_lang = ?',
    ),
    putDictionary: db.prepare(
      `INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entries, entry_count)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (glossary_id, source_lang, target_lang)
       DO UPDATE SET entries = excluded.entries, entry_count = excluded.entry_count`,
    ),
    deleteDictionary: db.prepare(
      'DELETE FROM glossary_dictionaries WHERE glossary_id = ? AND source_lang = ? AND target_lang = ?',
    ),
    rename: db.prepare(
      'UPDATE glossaries SET name = ?, updated_at = ?, version = version + 1 WHERE account_id = ? AND id = ?',
    ),
    touch: db.prepare('UPDATE glossaries SET updated_at = ?, version = version + 1 WHERE id = ?'),
    delete: db.prepare('DELETE FROM glossaries WHERE account_id = ? AND id = ?'),
    totalEntries: db.prepare(
      'SELECT COALESCE(SUM(entry_count), 0) AS n FROM glossary_dictionaries WHERE glossary_id = ?',
    ),
  };

  const record = (row: GlossaryRow): GlossaryRecord => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    dictionaries: (
      sql.dictionaries.all(row.id) as { source_lang: string; target_lang: string; entry_count: number }[]
    ).map((dictionary) => ({
      source: dictionary.source_lang,
      target: dictionary.target_lang,
      entryCount: dictionary.entry_count,
    })),
  });
  const owned = (accountId: string, id: string) => sql.get.get(accountId, id) as GlossaryRow | undefined;
  const writeDictionary = (id: string, dictionary: NewDictionary) => {
    const tsv = tsvText(dictionary);
    if (utf8Bytes(tsv) > MAX_GLOSSARY_BYTES) throw tooLarge();
    sql.putDictionary.run(id, dictionary.source, dictionary.target, tsv, dictionary.entryCount);
  };

  const create = db.transaction((accountId: string, name: string, dictionaries: readonly NewDictionary[]) => {
    const { n } = sql.count.get(accountId) as { n: number };
    if (n >= MAX_GLOSSARIES_PER_ACCOUNT) {
      throw badRequest(
        `Too many glossaries: an account can hold at most ${MAX_GLOSSARIES_PER_ACCOUNT}. Delete one first.`,
      );
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    sql.insert.run(id, accountId, name, now, now);
    for (const dictionary of dictionaries) writeDictionary(id, dictionary);
    return record(owned(accountId, id)!);
  });

  const putDictionary = db.transaction(
    (accountId: string, id: string, dictionary: NewDictionary, merge: boolean) => {
      if (!owned(accountId, id)) return false;
      let written = dictionary;
      if (merge) {
        const current = sql.entries.get(id, dictionary.source, dictionary.target) as
          | { entries: string }
          | undefined;
        if (current) written = mergedDictionary(current.entries, dictionary);
      }
      writeDictionary(id, written);
      sql.touch.run(new Date().toISOString(), id);
      return true;
    },
  );

  // Large dictionaries (and any given as bytes) are written and read on the database thread (db-thread.ts);
  // an in-memory database has no file a second connection could open, so it keeps every write on the event loop.
  const file = db.memory ? undefined : db.name;
  const large = (dictionary: NewDictionary) =>
    file !== undefined &&
    (typeof dictionary.tsv !== 'string' || dictionary.tsv.length >= dbThreadThresholds.chars);
  const forThread = async ({ source, target, tsv, entryCount }: NewDictionary): Promise<ThreadDictionary> => {
    if ((typeof tsv === 'string' ? utf8Bytes(tsv) : tsv.length) > MAX_GLOSSARY_BYTES) throw tooLarge();
    const bytes = typeof tsv === 'string' ? await utf8InSlices([tsv]) : tsv;
    return { source, target, bytes, entryCount };
  };
  const entryTable: GlossaryStore['entryTable'] = async (accountId, id, source, target) => {
    if (!owned(accountId, id)) return undefined;
    const counted = sql.entryCount.get(id, source, target) as { entry_count: number } | undefined;
    if (!counted) return undefined;
    if (file !== undefined && counted.entry_count >= dbThreadThresholds.entries) {
      const bytes = (await onDbThread(file, MAX_GLOSSARY_BYTES, { type: 'read', id, source, target })) as
        | Uint8Array
        | undefined;
      return bytes && tsvBytesTableInSlices(bytes);
    }
    const row = sql.entries.get(id, source, target) as { entries: string } | undefined;
    return row && tsvTableInSlices(row.entries);
  };
  // The event loop's own writes wait for the thread's asynchronously, not on SQLite's lock (see db-thread.ts).
  const afterThreadWrites = () => (file === undefined ? undefined : threadWritesSettled(file));
  const tooMany = () =>
    badRequest(
      `Too many glossaries: an account can hold at most ${MAX_GLOSSARIES_PER_ACCOUNT}. Delete one first.`,
    );

  return {
    async create(accountId, name, dictionaries) {
      if (file === undefined || !dictionaries.some(large)) {
        await afterThreadWrites();
        return create.immediate(accountId, name, dictionaries);
      }
      const sent: ThreadDictionary[] = [];
      for (const dictionary of dictionaries) sent.push(await forThread(dictionary));
      const id = randomUUID();
      const now = new Date().toISOString();
      const max = MAX_GLOSSARIES_PER_ACCOUNT;
      const job = { type: 'create', accountId, id, name, now, max, dictionaries: sent } as const;
      if ((await onDbThread(file, MAX_GLOSSARY_BYTES, job)) === 'too-many') throw tooMany();
      return record(owned(accountId, id)!);
    },
    async list(accountId) {
      return (sql.list.all(accountId) as GlossaryRow[]).map(record);
    },
    async get(accountId, id) {
      const row = owned(accountId, id);
      return row && record(row);
    },
    async entries(accountId, id, source, target) {
      return (await entryTable(accountId, id, source, target))?.toArray();
    },
    entryTable,
    async rename(accountId, id, name) {
      await afterThreadWrites();
      return sql.rename.run(name, new Date().toISOString(), accountId, id).changes > 0;
    },
    async putDictionary(accountId, id, dictionary, merge) {
      const current =
        merge && file !== undefined
          ? (sql.entryCount.get(id, dictionary.source, dictionary.target) as
              | { entry_count: number }
              | undefined)
          : undefined;
      if (!large(dictionary) && (current?.entry_count ?? 0) < dbThreadThresholds.entries) {
        await afterThreadWrites();
        return putDictionary.immediate(accountId, id, dictionary, merge);
      }
      const job = {
        type: 'put',
        accountId,
        id,
        now: new Date().toISOString(),
        merge,
        dictionary: await forThread(dictionary),
      } as const;
      const written = await onDbThread(file!, MAX_GLOSSARY_BYTES, job);
      if (written === 'too-large') throw tooLarge();
      return written as boolean;
    },
    async deleteDictionary(accountId, id, source, target) {
      await afterThreadWrites();
      if (!owned(accountId, id)) return false;
      const deleted = sql.deleteDictionary.run(id, source, target).changes > 0;
      if (deleted) sql.touch.run(new Date().toISOString(), id);
      return deleted;
    },
    async delete(accountId, id) {
      // Freeing a large dictionary's pages takes 50–100 ms: the database thread does it.
      const { n } = sql.totalEntries.get(id) as { n: number };
      if (file !== undefined && n >= dbThreadThresholds.entries)
        return (await onDbThread(file, MAX_GLOSSARY_BYTES, { type: 'delete', accountId, id })) as boolean;
      await afterThreadWrites();
      return sql.delete.run(accountId, id).changes > 0;
    },
  };
}
