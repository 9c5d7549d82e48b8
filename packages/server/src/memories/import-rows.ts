/**
 * The rows an import writes into a memory, in SQLite: one transaction per batch of segments (their targets,
 * and the posting rows the batch fills), then the posting lists' last rows a few lists per transaction; and
 * a memory's deletion, a few rows per transaction. Used on the event loop's connection (`store.ts`, for a
 * database in memory and for tests) and on a memory thread's own connection (`import-worker.ts`).
 */
import type Database from 'better-sqlite3';
import { type PendingPostings, type SegmentInput, TOKEN_SEPARATOR } from './postings.js';
import { exactKey, tokenize } from './score.js';

export type PostingRow = [key: string, count: number, ids: string];

/** The import's transactions on a connection (run them with `.immediate`: they write at once). */
export interface ImportTransactions {
  /** One batch: its segments and targets, and the posting rows they fill (`postings`). */
  readonly addBatch: Database.Transaction<
    (memoryId: string, segments: readonly SegmentInput[], postings: PendingPostings) => void
  >;
  /** Posting rows left at the end (`PendingPostings.takeRest`) and the totals of lists written early. */
  readonly writeRest: Database.Transaction<
    (memoryId: string, rows: PostingRow[], totals: [string, number][]) => void
  >;
}

export function importTransactions(db: Database.Database): ImportTransactions {
  const insertSegment = db.prepare(
    `INSERT INTO memory_segments (memory_id, source_text, source_key, token_count, tokens, source_tagged)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertTarget = db.prepare(
    'INSERT INTO memory_targets (segment_id, seq, language, text, tagged) VALUES (?, ?, ?, ?, ?)',
  );
  const insertPosting = db.prepare(
    'INSERT INTO memory_postings (memory_id, gram, segments, ids) VALUES (?, ?, ?, ?)',
  );
  const postingTotal = db.prepare('UPDATE memory_postings SET segments = ? WHERE memory_id = ? AND gram = ?');
  return {
    addBatch: db.transaction(
      (memoryId: string, segments: readonly SegmentInput[], postings: PendingPostings) => {
        for (const segment of segments) {
          const tokens = tokenize(segment.source);
          const id = Number(
            insertSegment.run(
              memoryId,
              segment.source,
              exactKey(segment.source),
              tokens.length,
              tokens.join(TOKEN_SEPARATOR),
              segment.sourceTagged ?? null,
            ).lastInsertRowid,
          );
          segment.targets.forEach((target, seq) => {
            insertTarget.run(id, seq, target.language, target.text, target.tagged ?? null);
          });
          postings.add(id, tokens, segment.sourceTagged);
          for (const [key, count, list] of postings.takeFull()) insertPosting.run(memoryId, key, count, list);
        }
      },
    ),
    writeRest: db.transaction((memoryId: string, rows: PostingRow[], totals: [string, number][]) => {
      for (const [key, count, list] of rows) insertPosting.run(memoryId, key, count, list);
      for (const [gram, total] of totals) postingTotal.run(total, memoryId, gram);
    }),
  };
}

/** A memory's deletion in steps of one transaction each; a step answers whether rows of its kind are left. */
export interface DeletionSteps {
  /** Up to `rows` segments (their targets go with them). */
  segments(memoryId: string, rows: number): boolean;
  /** Up to `rows` posting rows (after the segments). */
  postings(memoryId: string, rows: number): boolean;
  /** The memory's own row (last). */
  memory(memoryId: string): void;
}

export function deletionSteps(db: Database.Database): DeletionSteps {
  const deleteSegments = db.prepare(
    'DELETE FROM memory_segments WHERE id IN (SELECT id FROM memory_segments WHERE memory_id = ? ORDER BY id LIMIT ?)',
  );
  const deletePostingRows = db.prepare(
    `DELETE FROM memory_postings WHERE memory_id = ? AND gram IN
     (SELECT gram FROM memory_postings WHERE memory_id = ? LIMIT ?)`,
  );
  const deleteMemory = db.prepare('DELETE FROM memories WHERE id = ?');
  return {
    segments: (memoryId, rows) => deleteSegments.run(memoryId, rows).changes > 0,
    postings: (memoryId, rows) => deletePostingRows.run(memoryId, memoryId, rows).changes > 0,
    memory: (memoryId) => void deleteMemory.run(memoryId),
  };
}
