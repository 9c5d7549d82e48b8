/**
 * Translation memories of a fleet, in PostgreSQL (the tables of `postgres-resources.ts`): the store that
 * every instance reads (`MemoryStore`, the same lookups as SQLite's through `createLookups`), and the
 * writes an import makes on the event loop. A memory is written by one import: its row starts `ready =
 * false` (invisible to every read), the import's thread writes its segments and postings in batches of one
 * transaction each (`memories/import-rows-postgres.ts`), and one last transaction marks it ready and
 * completes the job (see `postgres-memory-jobs.ts`).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  createLookups,
  MAX_CANDIDATES,
  type MemoryRow,
  type MemoryRows,
  type MemoryStore,
  type MemoryStoreOptions,
  type StoredSegment,
  toRecord,
} from '../memories/store.js';
import type { Queryable } from './postgres-resources.js';

export interface PostgresMemoryStore extends MemoryStore {
  /** Starts an invisible memory; returns its id. */
  begin(db: Queryable, accountId: string, name: string): Promise<string>;
  /** Makes the memory (its rows all written) visible; call inside the transaction that ends the job. */
  finish(
    client: pg.PoolClient,
    memoryId: string,
    summary: { source: string; targets: readonly string[]; segments: number },
  ): Promise<void>;
  /** Deletes a memory whatever its state, on `db` (a transaction's client, or the pool). */
  removeOn(db: Queryable, memoryId: string): Promise<void>;
}

interface SegmentRow {
  id: string;
  source_text: string;
  source_tagged: string | null;
}

export function createPostgresMemoryStore(
  pool: pg.Pool,
  options: MemoryStoreOptions = {},
): PostgresMemoryStore {
  const segmentsOf = async (rows: SegmentRow[]): Promise<StoredSegment[]> => {
    if (rows.length === 0) return [];
    const { rows: targets } = await pool.query<{
      segment_id: string;
      seq: number;
      language: string;
      text: string;
      tagged: string | null;
    }>(
      'SELECT segment_id, seq, language, text, tagged FROM memory_targets WHERE segment_id = ANY($1::bigint[]) ORDER BY segment_id, seq',
      [rows.map((row) => row.id)],
    );
    const bySegment = new Map<string, StoredSegment['targets'][number][]>();
    for (const target of targets) {
      let list = bySegment.get(target.segment_id);
      if (!list) {
        list = [];
        bySegment.set(target.segment_id, list);
      }
      list.push({
        seq: target.seq,
        language: target.language,
        text: target.text,
        tagged: target.tagged ?? undefined,
      });
    }
    return rows.map((row) => ({
      id: Number(row.id),
      source: row.source_text,
      sourceTagged: row.source_tagged ?? undefined,
      targets: bySegment.get(row.id) ?? [],
    }));
  };
  const segmentsAfter = async (memoryId: string, after: number, limit: number) =>
    segmentsOf(
      (
        await pool.query<SegmentRow>(
          'SELECT id, source_text, source_tagged FROM memory_segments WHERE memory_id = $1 AND id > $2 ORDER BY id LIMIT $3',
          [memoryId, after, limit],
        )
      ).rows,
    );
  const withNumberIds = <T extends { id: string }>(rows: T[]) =>
    rows.map((row) => ({ ...row, id: Number(row.id) }));

  const rows: MemoryRows = {
    async exact(memoryId, key) {
      const { rows: found } = await pool.query<{ id: string; source_text: string }>(
        'SELECT id, source_text FROM memory_segments WHERE memory_id = $1 AND source_key = $2 ORDER BY id LIMIT 50',
        [memoryId, key],
      );
      return withNumberIds(found);
    },
    async postingCounts(memoryId, grams) {
      const { rows: found } = await pool.query<{ gram: string; segments: number }>(
        'SELECT gram, segments FROM memory_postings WHERE memory_id = $1 AND gram = ANY($2::text[])',
        [memoryId, grams],
      );
      return found;
    },
    async postingLists(memoryId, keys) {
      const { rows: found } = await pool.query<{ gram: string; ids: string }>(
        'SELECT gram, ids FROM memory_postings WHERE memory_id = $1 AND gram = ANY($2::text[])',
        [memoryId, keys],
      );
      return found;
    },
    async candidates(ids, min, max) {
      const { rows: found } = await pool.query<{ id: string; source_text: string; tokens: string }>(
        `SELECT id, source_text, tokens FROM memory_segments WHERE id = ANY($1::bigint[])
         AND token_count BETWEEN $2 AND $3 LIMIT ${MAX_CANDIDATES}`,
        [ids, min, max],
      );
      return withNumberIds(found);
    },
    async targets(segmentId) {
      const { rows: found } = await pool.query<{ language: string; text: string }>(
        'SELECT language, text FROM memory_targets WHERE segment_id = $1 ORDER BY seq',
        [segmentId],
      );
      return found;
    },
    async exactTagged(memoryId, key) {
      const { rows: found } = await pool.query<{ id: string; source_tagged: string }>(
        `SELECT id, source_tagged FROM memory_segments WHERE memory_id = $1 AND source_key = $2
         AND source_tagged IS NOT NULL ORDER BY id LIMIT 50`,
        [memoryId, key],
      );
      return withNumberIds(found);
    },
    async taggedCandidates(ids, min, max) {
      const { rows: found } = await pool.query<{ id: string; source_tagged: string }>(
        `SELECT id, source_tagged FROM memory_segments WHERE id = ANY($1::bigint[])
         AND token_count BETWEEN $2 AND $3 AND source_tagged IS NOT NULL LIMIT ${MAX_CANDIDATES}`,
        [ids, min, max],
      );
      return withNumberIds(found);
    },
    async taggedTargets(segmentId) {
      const { rows: found } = await pool.query<{ language: string; tagged: string }>(
        'SELECT language, tagged FROM memory_targets WHERE segment_id = $1 AND tagged IS NOT NULL ORDER BY seq',
        [segmentId],
      );
      return found;
    },
  };

  const removeOn = async (db: Queryable, memoryId: string) => {
    await db.query('DELETE FROM memory_postings WHERE memory_id = $1', [memoryId]);
    await db.query('DELETE FROM memories WHERE id = $1', [memoryId]);
  };

  return {
    ...createLookups(rows, options),
    async begin(db, accountId, name) {
      const id = randomUUID();
      await db.query(
        `INSERT INTO memories (id, account_id, name, source_language, target_languages, ready, created_at)
         VALUES ($1, $2, $3, '', '[]', FALSE, $4)`,
        [id, accountId, name, new Date().toISOString()],
      );
      return id;
    },
    async finish(client, memoryId, summary) {
      await client.query(
        'UPDATE memories SET source_language = $1, target_languages = $2, segment_count = $3, ready = TRUE WHERE id = $4',
        [summary.source, JSON.stringify(summary.targets), summary.segments, memoryId],
      );
    },
    removeOn,
    async remove(memoryId) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await removeOn(client, memoryId);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async get(accountId, id) {
      const { rows: found } = await pool.query<MemoryRow>(
        'SELECT * FROM memories WHERE account_id = $1 AND id = $2 AND ready',
        [accountId, id],
      );
      return found[0] && toRecord(found[0]);
    },
    async list(accountId, offset, limit) {
      const { rows: found } = await pool.query<MemoryRow>(
        `SELECT * FROM memories WHERE account_id = $1 AND ready ORDER BY created_at COLLATE "C", id COLLATE "C"
         LIMIT $2 OFFSET $3`,
        [accountId, limit, offset],
      );
      const { rows: count } = await pool.query<{ n: string }>(
        'SELECT COUNT(*) AS n FROM memories WHERE account_id = $1 AND ready',
        [accountId],
      );
      return { memories: found.map(toRecord), total: Number(count[0]!.n) };
    },
    async segments(memoryId, after, limit, filter) {
      if (filter === undefined || filter === '') {
        return { segments: await segmentsAfter(memoryId, after, limit), filtered: undefined };
      }
      const like = `%${filter.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const matching = `s.memory_id = $1 AND (s.source_text LIKE $2 OR EXISTS (SELECT 1 FROM memory_targets t
            WHERE t.segment_id = s.id AND t.text LIKE $2))`;
      const { rows: found } = await pool.query<SegmentRow>(
        `SELECT s.id, s.source_text, s.source_tagged FROM memory_segments s WHERE ${matching} AND s.id > $3
         ORDER BY s.id LIMIT $4`,
        [memoryId, like, after, limit],
      );
      const { rows: count } = await pool.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM memory_segments s WHERE ${matching}`,
        [memoryId, like],
      );
      return { segments: await segmentsOf(found), filtered: Number(count[0]!.n) };
    },
    async *all(memoryId) {
      let after = 0;
      for (;;) {
        const page = await segmentsAfter(memoryId, after, 1000);
        if (page.length === 0) return;
        yield* page;
        after = page[page.length - 1]!.id;
      }
    },
  };
}
