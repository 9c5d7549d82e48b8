/**
 * Translation memories in the resource database. A memory is written by one import: its row starts
 * `ready = 0` (invisible to every read), segments arrive in batches, and one last transaction sets the
 * languages, the count and `ready = 1`. A memory left unready by a crash is deleted at the next start.
 *
 * Fuzzy lookup is indexed: `memory_postings` maps each distinct token (a word 1-gram, see `score.ts`) to
 * the segments holding it and their count, in rows of `POSTING_CHUNK` ids (written while importing, each
 * row as soon as it fills: see `PendingPostings`). A segment scoring at least t on a text of n tokens lacks
 * at most D = ⌊n(100 − t)/t⌋ of the text's distinct tokens, so it holds one of the text's D + 1 rarest
 * tokens: only those postings are read (prefix filtering), then candidates are scored exactly.
 *
 * A lookup's work is bounded whatever the memory: at most `MAX_CANDIDATES` segment ids are taken from the
 * postings, rarest token first, and only the posting rows holding them are read. When those D + 1 lists
 * together hold no more (every ordinary memory we measured: rare words have short lists), no match above t
 * is missed; past it (a memory whose segments all share the text's tokens), the segments of the rarer
 * tokens come first and the rest of the longest lists is not read.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { threadWritesSettled } from '../glossaries/db-thread.js';
import type { ResourceDatabase } from '../storage/resource-db.js';
import { inTurns, nextTurn, TURN_MS } from '../turns.js';
import { deletionSteps, importTransactions } from './import-rows.js';
import { deleteOnThread, importOnThread, writeInBatches } from './import-thread.js';
import {
  PendingPostings,
  POSTING_CHUNK,
  postingKey,
  REST_LISTS,
  type SegmentInput,
  TOKEN_SEPARATOR,
} from './postings.js';
import { exactKey, fuzzyScore, matchScore, tokenize } from './score.js';
import { createTaggedLookup, type TaggedMatch, type TaggedRows } from './tagged-lookup.js';
import type { TmxSummary } from './tmx.js';

export interface MemoryRecord {
  readonly id: string;
  readonly name: string;
  /** Root language codes, lower case. */
  readonly source: string;
  readonly targets: readonly string[];
  readonly segmentCount: number;
  readonly createdAt: string;
}

export interface StoredSegment {
  readonly id: number;
  readonly source: string;
  readonly sourceTagged: string | undefined;
  readonly targets: readonly {
    readonly seq: number;
    readonly language: string;
    readonly text: string;
    readonly tagged: string | undefined;
  }[];
}

export interface MemoryMatch {
  readonly segmentId: number;
  readonly score: number;
  readonly target: string;
  /** The segment's source, for a fuzzy match: what differs from the request decides whether it is used. */
  readonly source?: string;
}

const storedTokens = (row: { source_text: string; tokens: string }) =>
  row.tokens === '' ? tokenize(row.source_text) : row.tokens.split(TOKEN_SEPARATOR);

/** Candidates (segment ids taken from the postings, then segments scored) per lookup, at most. */
export const MAX_CANDIDATES = 5000;

/**
 * Rows (segments with their targets, or posting rows) a memory's deletion on the event loop (a database in
 * memory) deletes per transaction; a file's memories are deleted on a thread (import-thread.ts).
 */
const DELETE_ROWS = 16;

/** What one fuzzy lookup read and scored (for tests and benchmarks: the work is bounded). */
export interface LookupWork {
  /** Segment ids read from posting rows. */
  readonly postingIds: number;
  /** Segments read as candidates and scored. */
  readonly candidates: number;
}

/** Options of both stores. */
export interface MemoryStoreOptions {
  /** Called after each fuzzy lookup with its work. */
  readonly onLookupWork?: (work: LookupWork) => void;
}

export interface MemoryRow {
  id: string;
  name: string;
  source_language: string;
  target_languages: string;
  segment_count: number;
  created_at: string;
}

export const toRecord = (row: MemoryRow): MemoryRecord => ({
  id: row.id,
  name: row.name,
  source: row.source_language,
  targets: JSON.parse(row.target_languages) as string[],
  segmentCount: row.segment_count,
  createdAt: row.created_at,
});

/**
 * The translation memories of every account, as the HTTP routes and translations read them. Two
 * implementations: SQLite (`createMemoryStore`, below) and PostgreSQL (`storage/postgres-memories.ts`).
 * Imports write memories through their backend's job runner, not through this interface.
 */
export interface MemoryStore {
  /** A ready memory of the account, or undefined. */
  get(accountId: string, id: string): Promise<MemoryRecord | undefined>;
  list(
    accountId: string,
    offset: number,
    limit: number,
  ): Promise<{ memories: MemoryRecord[]; total: number }>;
  /** One page after segment id `after`, optionally only segments whose source or a target contains `filter`. */
  segments(
    memoryId: string,
    after: number,
    limit: number,
    filter?: string,
  ): Promise<{ segments: StoredSegment[]; filtered: number | undefined }>;
  /** Every segment in id order, read in pages (for export). */
  all(memoryId: string): AsyncGenerator<StoredSegment>;
  /** Deletes a memory whatever its state (an abandoned import, or on request). */
  remove(memoryId: string): Promise<void>;
  /** The best segment with a target in `language` scoring at least `threshold`, or undefined. */
  lookup(
    memoryId: string,
    text: string,
    language: string,
    threshold: number,
  ): Promise<MemoryMatch | undefined>;
  /**
   * For a markup unit with inline codes (the engine's code form): the best segment with the same code
   * structure whose target in `language` maps onto the unit's codes; the target comes in code form with
   * the unit's code ids.
   */
  lookupTagged(
    memoryId: string,
    unit: string,
    language: string,
    threshold: number,
  ): Promise<TaggedMatch | undefined>;
}

/** What a lookup reads from a backend; the algorithm (`createLookups`) is the same on both. */
export interface MemoryRows extends TaggedRows {
  /** Segments whose exact key is `key` (at most 50). */
  exact(memoryId: string, key: string): Promise<{ id: number; source_text: string }[]>;
  /** How many segments hold each of `grams` (grams no segment holds are absent). */
  postingCounts(memoryId: string, grams: readonly string[]): Promise<{ gram: string; segments: number }[]>;
  /** The posting rows of `keys` (`postingKey`): each row's key and its segment ids as a JSON array. */
  postingLists(memoryId: string, keys: readonly string[]): Promise<{ gram: string; ids: string }[]>;
  /** Segments among `ids` whose token count is in [min, max] (at most MAX_CANDIDATES). */
  candidates(
    ids: readonly number[],
    min: number,
    max: number,
  ): Promise<{ id: number; source_text: string; tokens: string }[]>;
  /** The segment's targets, in order. */
  targets(segmentId: number): Promise<{ language: string; text: string }[]>;
}

/** `lookup` and `lookupTagged` over a backend's rows (prefix filtering, see the top of this file). */
export function createLookups(
  rows: MemoryRows,
  options: MemoryStoreOptions = {},
): Pick<MemoryStore, 'lookup' | 'lookupTagged'> {
  /**
   * Ids of the segments holding one of the `allowed + 1` rarest of `tokens`, rarest token first, at most
   * MAX_CANDIDATES of them; with how many ids the posting rows read held.
   */
  const prefixCandidates = async (
    memoryId: string,
    tokens: readonly string[],
    allowed: number,
  ): Promise<{ ids: number[]; read: number }> => {
    const distinct = [...new Set(tokens)];
    if (distinct.length === 0) return { ids: [], read: 0 };
    const counts = new Map(
      (await rows.postingCounts(memoryId, distinct)).map((row) => [row.gram, row.segments]),
    );
    const prefix = distinct
      .sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0))
      .slice(0, allowed + 1)
      .filter((gram) => counts.has(gram));
    // How many ids of each list the budget takes, rarest first, and the rows that hold them.
    const wanted: [gram: string, take: number][] = [];
    const keys: string[] = [];
    let budget = MAX_CANDIDATES;
    for (const gram of prefix) {
      if (budget === 0) break;
      const take = Math.min(counts.get(gram)!, budget);
      wanted.push([gram, take]);
      for (let chunk = 0; chunk * POSTING_CHUNK < take; chunk++) keys.push(postingKey(gram, chunk));
      budget -= take;
    }
    if (keys.length === 0) return { ids: [], read: 0 };
    const lists = new Map<string, number[]>();
    let read = 0;
    for (const row of await rows.postingLists(memoryId, keys)) {
      const ids = JSON.parse(row.ids) as number[];
      read += ids.length;
      lists.set(row.gram, ids);
    }
    const ids = new Set<number>();
    for (const [gram, take] of wanted) {
      let taken = 0;
      for (let chunk = 0; taken < take; chunk++) {
        const list = lists.get(postingKey(gram, chunk));
        if (!list) break;
        // A memory imported before lists were cut into rows has its whole list in the first row.
        for (const id of list.length > take - taken ? list.slice(0, take - taken) : list) ids.add(id);
        taken += list.length;
      }
    }
    return { ids: [...ids], read };
  };
  const targetFor = async (segmentId: number, language: string) =>
    (await rows.targets(segmentId)).find((target) => target.language === language)?.text;
  return {
    lookupTagged: createTaggedLookup(rows, prefixCandidates, options.onLookupWork),
    async lookup(memoryId, text, language, threshold) {
      const key = exactKey(text);
      for (const row of await rows.exact(memoryId, key)) {
        const target = await targetFor(row.id, language);
        if (target !== undefined) return { segmentId: row.id, score: 100, target };
      }
      if (threshold >= 100) return undefined;
      const tokens = tokenize(text);
      const t = Math.max(threshold, 1);
      const { ids, read } = await prefixCandidates(
        memoryId,
        tokens,
        Math.floor((tokens.length * (100 - t)) / t),
      );
      const minTokens = Math.ceil((tokens.length * t) / 100);
      const maxTokens = Math.floor((tokens.length * 100) / t);
      const candidates = ids.length === 0 ? [] : await rows.candidates(ids, minTokens, maxTokens);
      options.onLookupWork?.({ postingIds: read, candidates: candidates.length });
      const scored = candidates
        .map((row) => ({
          id: row.id,
          source: row.source_text,
          // Exact matches were looked up first: what is left scores as two different texts.
          score:
            row.source_text === text
              ? matchScore(text, tokens, row.source_text, storedTokens(row))
              : fuzzyScore(tokens, storedTokens(row)),
        }))
        .filter((candidate) => candidate.score >= threshold)
        .sort((a, b) => b.score - a.score || a.id - b.id);
      for (const candidate of scored) {
        const target = await targetFor(candidate.id, language);
        if (target !== undefined) {
          return { segmentId: candidate.id, score: candidate.score, target, source: candidate.source };
        }
      }
      return undefined;
    },
  };
}

/** The SQLite store, with the synchronous writes its in-process job runner (`jobs.ts`) uses. */
export interface SqliteMemoryStore extends MemoryStore {
  /**
   * Starts an invisible memory; returns its id. Like every write of an import, it waits for the glossary
   * thread's writes on the file first: SQLite's lock would block the event loop meanwhile.
   */
  begin(accountId: string, name: string): Promise<string>;
  /**
   * One transaction per batch, written on a next turn of the event loop that no young request waits for
   * (`turns.ts`: an import is long work, and short requests come first).
   */
  addBatch(memoryId: string, segments: readonly SegmentInput[]): Promise<void>;
  /**
   * Reads the TMX `content` into the unready memory `memoryId` and writes its segments and postings: on a
   * thread of its own with its own connection (memories/import-thread.ts), or for a database in memory in
   * batches on the event loop (`addBatch`, `finish` then writes the postings left).
   */
  importTmx(memoryId: string, content: AsyncIterable<Buffer>, signal: AbortSignal): Promise<TmxSummary>;
  /**
   * Writes the posting lists' last rows and the token counts (a few lists per transaction, the event loop
   * free between them: the memory is still invisible), then makes the memory visible.
   */
  finish(memoryId: string, source: string, targets: readonly string[], count: number): Promise<void>;
  /** Deletes a memory whatever its state (invisible at once, its rows a few per turn: `remove`). */
  discard(memoryId: string): Promise<void>;
  /** Deletes every memory an interrupted import left unready; returns their ids. */
  removeUnready(): string[];
  /** Posting ids an import in progress holds in memory (for tests: bounded whatever the memory's size). */
  pendingPostingIds(memoryId: string): number;
}

export function createMemoryStore(db: ResourceDatabase, options: MemoryStoreOptions = {}): SqliteMemoryStore {
  const file = db.memory ? undefined : db.name;
  const sql = {
    begin: db.prepare(
      `INSERT INTO memories (id, account_id, name, source_language, target_languages, ready, created_at)
       VALUES (?, ?, ?, '', '[]', 0, ?)`,
    ),
    finish: db.prepare(
      `UPDATE memories SET source_language = ?, target_languages = ?, segment_count = ?, ready = 1 WHERE id = ?`,
    ),
    deletePostings: db.prepare('DELETE FROM memory_postings WHERE memory_id = ?'),
    candidates: db.prepare(
      `SELECT id, source_text, tokens FROM memory_segments WHERE id IN (SELECT value FROM json_each(?))
       AND token_count BETWEEN ? AND ? LIMIT ${MAX_CANDIDATES}`,
    ),
    deleteMemory: db.prepare('DELETE FROM memories WHERE id = ?'),
    hide: db.prepare('UPDATE memories SET ready = 0 WHERE id = ?'),
    unready: db.prepare('SELECT id FROM memories WHERE ready = 0'),
    get: db.prepare('SELECT * FROM memories WHERE account_id = ? AND id = ? AND ready = 1'),
    page: db.prepare(
      'SELECT * FROM memories WHERE account_id = ? AND ready = 1 ORDER BY created_at, id LIMIT ? OFFSET ?',
    ),
    count: db.prepare('SELECT COUNT(*) AS n FROM memories WHERE account_id = ? AND ready = 1'),
    segmentsAfter: db.prepare(
      'SELECT id, source_text, source_tagged FROM memory_segments WHERE memory_id = ? AND id > ? ORDER BY id LIMIT ?',
    ),
    filteredAfter: db.prepare(
      `SELECT s.id, s.source_text, s.source_tagged FROM memory_segments s WHERE s.memory_id = @memory AND s.id > @after
       AND (s.source_text LIKE @like ESCAPE '\\' OR EXISTS (SELECT 1 FROM memory_targets t
            WHERE t.segment_id = s.id AND t.text LIKE @like ESCAPE '\\'))
       ORDER BY s.id LIMIT @limit`,
    ),
    filteredCount: db.prepare(
      `SELECT COUNT(*) AS n FROM memory_segments s WHERE s.memory_id = @memory
       AND (s.source_text LIKE @like ESCAPE '\\' OR EXISTS (SELECT 1 FROM memory_targets t
            WHERE t.segment_id = s.id AND t.text LIKE @like ESCAPE '\\'))`,
    ),
    targets: db.prepare(
      'SELECT seq, language, text, tagged FROM memory_targets WHERE segment_id = ? ORDER BY seq',
    ),
    exact: db.prepare(
      'SELECT id, source_text FROM memory_segments WHERE memory_id = ? AND source_key = ? LIMIT 50',
    ),
    exactTagged: db.prepare(
      `SELECT id, source_tagged FROM memory_segments WHERE memory_id = ? AND source_key = ?
       AND source_tagged IS NOT NULL LIMIT 50`,
    ),
    taggedCandidates: db.prepare(
      `SELECT id, source_tagged FROM memory_segments WHERE id IN (SELECT value FROM json_each(?))
       AND token_count BETWEEN ? AND ? AND source_tagged IS NOT NULL LIMIT ${MAX_CANDIDATES}`,
    ),
    taggedTargets: db.prepare(
      'SELECT language, tagged FROM memory_targets WHERE segment_id = ? AND tagged IS NOT NULL ORDER BY seq',
    ),
  };

  /**
   * Awaits the threads' writes on this file (the glossary database thread's, an import thread's), not SQLite's
   * lock, which would hold the event loop: each write, or each turn of a long one, starts once none is in flight.
   */
  const threadWrites = async () => {
    if (file === undefined) return;
    // Until none is in flight: a thread's write granted while this one was awaited is awaited too.
    for (let writes = threadWritesSettled(file); writes; writes = threadWritesSettled(file)) await writes;
  };
  /** The posting lists of each import in progress; full rows are written with the batch that fills them. */
  const pendingPostings = new Map<string, PendingPostings>();
  const writes = importTransactions(db);
  const postingsOf = (memoryId: string) => {
    let postings = pendingPostings.get(memoryId);
    if (!postings) {
      postings = new PendingPostings();
      pendingPostings.set(memoryId, postings);
    }
    return postings;
  };
  async function addBatch(memoryId: string, segments: readonly SegmentInput[]): Promise<void> {
    await nextTurn();
    await threadWrites();
    writes.addBatch.immediate(memoryId, segments, postingsOf(memoryId));
  }
  const remove = db.transaction((memoryId: string) => {
    sql.deletePostings.run(memoryId);
    sql.deleteMemory.run(memoryId);
  });
  const steps = deletionSteps(db);
  /**
   * Deletes a memory: invisible first (`ready = 0`: after a kill, `removeUnready` deletes the rest at the
   * next start), then its segments (and their targets), its posting rows, its row, a few rows per
   * transaction. On a thread (`deleteOnThread`: on the event loop, even in turns, the largest memory's
   * deletion kept it busy for 1.2–1.9 s), the event loop only granting each transaction; for a database in
   * memory on the event loop in turns.
   */
  async function removeInTurns(memoryId: string): Promise<void> {
    await threadWrites();
    pendingPostings.delete(memoryId);
    sql.hide.run(memoryId);
    if (file !== undefined) return deleteOnThread(file, memoryId);
    await inTurns(() => steps.segments(memoryId, DELETE_ROWS), TURN_MS, threadWrites);
    await inTurns(() => steps.postings(memoryId, DELETE_ROWS), TURN_MS, threadWrites);
    steps.memory(memoryId);
  }
  type TargetRow = { seq: number; language: string; text: string; tagged: string | null };
  const segmentsOf = (rows: { id: number; source_text: string; source_tagged: string | null }[]) =>
    rows.map(
      (row): StoredSegment => ({
        id: row.id,
        source: row.source_text,
        sourceTagged: row.source_tagged ?? undefined,
        targets: (sql.targets.all(row.id) as TargetRow[]).map((target) => ({
          seq: target.seq,
          language: target.language,
          text: target.text,
          tagged: target.tagged ?? undefined,
        })),
      }),
    );
  /** Lookup statements differ only in how many tokens they list: prepared once per shape. */
  const statements = new Map<string, Database.Statement>();
  const statement = (text: string) => {
    let prepared = statements.get(text);
    if (!prepared) {
      prepared = db.prepare(text);
      if (statements.size > 500) statements.clear();
      statements.set(text, prepared);
    }
    return prepared;
  };
  const marks = (count: number) => Array.from({ length: count }, () => '?').join(',');
  const rows: MemoryRows = {
    async exact(memoryId, key) {
      return sql.exact.all(memoryId, key) as { id: number; source_text: string }[];
    },
    async postingCounts(memoryId, grams) {
      return statement(
        `SELECT gram, segments FROM memory_postings WHERE memory_id = ? AND gram IN (${marks(grams.length)})`,
      ).all(memoryId, ...grams) as { gram: string; segments: number }[];
    },
    async postingLists(memoryId, keys) {
      return statement(
        `SELECT gram, ids FROM memory_postings WHERE memory_id = ? AND gram IN (${marks(keys.length)})`,
      ).all(memoryId, ...keys) as { gram: string; ids: string }[];
    },
    async candidates(ids, min, max) {
      return sql.candidates.all(JSON.stringify(ids), min, max) as {
        id: number;
        source_text: string;
        tokens: string;
      }[];
    },
    async targets(segmentId) {
      return sql.targets.all(segmentId) as { language: string; text: string }[];
    },
    async exactTagged(memoryId, key) {
      return sql.exactTagged.all(memoryId, key) as { id: number; source_tagged: string }[];
    },
    async taggedCandidates(ids, min, max) {
      return sql.taggedCandidates.all(JSON.stringify(ids), min, max) as {
        id: number;
        source_tagged: string;
      }[];
    },
    async taggedTargets(segmentId) {
      return sql.taggedTargets.all(segmentId) as { language: string; tagged: string }[];
    },
  };

  return {
    ...createLookups(rows, options),
    async begin(accountId, name) {
      await threadWrites();
      const id = randomUUID();
      sql.begin.run(id, accountId, name, new Date().toISOString());
      return id;
    },
    addBatch,
    async importTmx(memoryId, content, signal) {
      if (file === undefined) return writeInBatches(addBatch)(memoryId, content, signal);
      return importOnThread({ kind: 'sqlite', file }, memoryId, content, signal);
    },
    async finish(memoryId, source, targets, count) {
      const postings = pendingPostings.get(memoryId);
      await threadWrites();
      if (postings)
        await inTurns(
          () => {
            // Discarded meanwhile: nothing more is written (its rows so far are the discard's to delete).
            if (pendingPostings.get(memoryId) !== postings) return false;
            const rest = postings.takeRest(REST_LISTS);
            writes.writeRest.immediate(memoryId, rest.rows, rest.totals);
            return !rest.done;
          },
          TURN_MS,
          threadWrites,
        );
      if (postings && pendingPostings.get(memoryId) !== postings) return;
      pendingPostings.delete(memoryId);
      sql.finish.run(source, JSON.stringify(targets), count, memoryId);
    },
    discard: removeInTurns,
    remove: removeInTurns,
    pendingPostingIds(memoryId) {
      return pendingPostings.get(memoryId)?.held ?? 0;
    },
    removeUnready() {
      const ids = (sql.unready.all() as { id: string }[]).map((row) => row.id);
      for (const id of ids) remove.immediate(id);
      return ids;
    },
    async get(accountId, id) {
      const row = sql.get.get(accountId, id) as MemoryRow | undefined;
      return row && toRecord(row);
    },
    async list(accountId, offset, limit) {
      const memories = (sql.page.all(accountId, limit, offset) as MemoryRow[]).map(toRecord);
      return { memories, total: (sql.count.get(accountId) as { n: number }).n };
    },
    async segments(memoryId, after, limit, filter) {
      if (filter === undefined || filter === '') {
        return {
          segments: segmentsOf(sql.segmentsAfter.all(memoryId, after, limit) as never[]),
          filtered: undefined,
        };
      }
      const like = `%${filter.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const found = sql.filteredAfter.all({ memory: memoryId, after, limit, like }) as never[];
      const filtered = (sql.filteredCount.get({ memory: memoryId, like }) as { n: number }).n;
      return { segments: segmentsOf(found), filtered };
    },
    async *all(memoryId) {
      let after = 0;
      for (;;) {
        const page = segmentsOf(sql.segmentsAfter.all(memoryId, after, 1000) as never[]);
        if (page.length === 0) return;
        yield* page;
        after = page[page.length - 1]!.id;
      }
    },
  };
}
