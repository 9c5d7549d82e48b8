/**
 * The rows an import writes into a memory, in PostgreSQL (the SQLite twin is `import-rows.ts`): one
 * transaction per batch of segments (their targets, and the posting rows the batch fills), then the posting
 * lists' last rows and totals a few lists per transaction. Written by an import's own thread through its own
 * connection (`import-worker.ts`); the memory stays invisible until the job makes it ready
 * (`storage/postgres-memory-jobs.ts`).
 */
import type pg from 'pg';
import { type PendingPostings, type SegmentInput, TOKEN_SEPARATOR } from './postings.js';
import { exactKey, tokenize } from './score.js';

/** Posting rows written (or counts set) per statement. */
const POSTINGS_PER_INSERT = 5000;

/** Runs `work` in one transaction on `client` (rolled back if it throws). */
export async function inTransaction(client: pg.ClientBase, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

async function insertPostings(
  client: pg.ClientBase,
  memoryId: string,
  entries: readonly [string, number, string][],
): Promise<void> {
  for (let start = 0; start < entries.length; start += POSTINGS_PER_INSERT) {
    const slice = entries.slice(start, start + POSTINGS_PER_INSERT);
    await client.query(
      `INSERT INTO memory_postings (memory_id, gram, segments, ids)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[])`,
      [memoryId, slice.map(([key]) => key), slice.map(([, count]) => count), slice.map(([, , ids]) => ids)],
    );
  }
}

/** One batch in one transaction: its segments and targets, and the posting rows they fill (`postings`). */
export async function addBatch(
  client: pg.ClientBase,
  memoryId: string,
  segments: readonly SegmentInput[],
  postings: PendingPostings,
): Promise<void> {
  if (segments.length === 0) return;
  await inTransaction(client, async () => {
    const { rows: ids } = await client.query<{ id: string }>(
      `SELECT nextval(pg_get_serial_sequence('memory_segments', 'id')) AS id FROM generate_series(1, $1)`,
      [segments.length],
    );
    const segmentIds = ids.map((row) => Number(row.id));
    const tokens = segments.map((segment) => tokenize(segment.source));
    await client.query(
      `INSERT INTO memory_segments (id, memory_id, source_text, source_key, token_count, tokens, source_tagged)
       SELECT id, $1, source_text, source_key, token_count, tokens, source_tagged
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
         AS s(id, source_text, source_key, token_count, tokens, source_tagged)`,
      [
        memoryId,
        segmentIds,
        segments.map((segment) => segment.source),
        segments.map((segment) => exactKey(segment.source)),
        tokens.map((list) => list.length),
        tokens.map((list) => list.join(TOKEN_SEPARATOR)),
        segments.map((segment) => segment.sourceTagged ?? null),
      ],
    );
    const target = {
      segment: [] as number[],
      seq: [] as number[],
      language: [] as string[],
      text: [] as string[],
      tagged: [] as (string | null)[],
    };
    segments.forEach((segment, index) => {
      segment.targets.forEach((item, seq) => {
        target.segment.push(segmentIds[index]!);
        target.seq.push(seq);
        target.language.push(item.language);
        target.text.push(item.text);
        target.tagged.push(item.tagged ?? null);
      });
    });
    await client.query(
      `INSERT INTO memory_targets (segment_id, seq, language, text, tagged)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[])`,
      [target.segment, target.seq, target.language, target.text, target.tagged],
    );
    segments.forEach((segment, index) => {
      postings.add(segmentIds[index]!, tokens[index]!, segment.sourceTagged);
    });
    await insertPostings(client, memoryId, postings.takeFull());
  });
}

/**
 * Posting rows left at the end (`PendingPostings.takeRest`) and the totals of lists written early, in one
 * transaction.
 */
export async function writeRest(
  client: pg.ClientBase,
  memoryId: string,
  rows: readonly [string, number, string][],
  totals: readonly [string, number][],
): Promise<void> {
  await inTransaction(client, async () => {
    await insertPostings(client, memoryId, rows);
    for (let start = 0; start < totals.length; start += POSTINGS_PER_INSERT) {
      const slice = totals.slice(start, start + POSTINGS_PER_INSERT);
      await client.query(
        `UPDATE memory_postings AS p SET segments = t.segments
         FROM unnest($2::text[], $3::int[]) AS t(gram, segments) WHERE p.memory_id = $1 AND p.gram = t.gram`,
        [memoryId, slice.map(([gram]) => gram), slice.map(([, total]) => total)],
      );
    }
  });
}
