/**
 * Issue 31: a TMX import's heavy work (parsing, tokenizing, writing segments and postings) runs on a thread of
 * its own with its own connection to the resource database, not on the event loop's (memories/import-thread.ts).
 * Checked without a clock: the event loop's connection changes only the memory's own row (SQLite's
 * `total_changes()` counts a connection's rows), the thread runs at the lowered priority, the memory written
 * is the one the event loop writes (same segments, targets and posting rows, ids relative to the first
 * segment's), a cancelled import writes nothing more, and a file that cannot be read fails as on the loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackThreadWrite } from '../src/glossaries/db-thread.js';
import { importThreadStats, writeInBatches } from '../src/memories/import-thread.js';
import { createMemoryStore, type SqliteMemoryStore } from '../src/memories/store.js';
import { readTmx } from '../src/memories/tmx.js';
import { openResourceDatabase, type ResourceDatabase } from '../src/storage/resource-db.js';
import { loweredThreads, pieces, THREAD_WORDS, threadUnits, tmx } from './memory-helpers.js';

const units = threadUnits;
const UNITS = units.length;
const file = Buffer.from(tmx(units));

const dir = mkdtempSync(join(tmpdir(), 'glossa-import-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const changes = (db: ResourceDatabase) =>
  (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;

/** A memory's rows, segment ids made relative to its first segment's. */
function rowsOf(db: ResourceDatabase, memoryId: string) {
  const segments = db
    .prepare(
      'SELECT id, source_text, source_key, token_count, tokens, source_tagged FROM memory_segments WHERE memory_id = ? ORDER BY id',
    )
    .all(memoryId) as { id: number }[];
  const first = segments[0]?.id ?? 0;
  const targets = db
    .prepare(
      `SELECT t.segment_id - ? AS segment, t.seq, t.language, t.text, t.tagged FROM memory_targets t
       JOIN memory_segments s ON s.id = t.segment_id WHERE s.memory_id = ? ORDER BY t.segment_id, t.seq`,
    )
    .all(first, memoryId);
  const postings = (
    db
      .prepare('SELECT gram, segments, ids FROM memory_postings WHERE memory_id = ? ORDER BY gram')
      .all(memoryId) as { gram: string; segments: number; ids: string }[]
  ).map((row) => ({ ...row, ids: (JSON.parse(row.ids) as number[]).map((id) => id - first) }));
  return { segments: segments.map((row) => ({ ...row, id: row.id - first })), targets, postings };
}

describe('a memory import on its own thread', () => {
  let db: ResourceDatabase;
  let store: SqliteMemoryStore;

  it('writes the segments and postings on another connection, at a lower priority, as the event loop would', async () => {
    db = openResourceDatabase(dir);
    store = createMemoryStore(db);
    const starts = importThreadStats.starts;
    const onLoop = await store.begin('acct', 'on the loop');
    const loopSummary = await writeInBatches(store.addBatch)(
      onLoop,
      pieces(file),
      new AbortController().signal,
    );
    await store.finish(onLoop, loopSummary.source, loopSummary.targets, loopSummary.segments);

    const threaded = await store.begin('acct', 'on the thread');
    const before = changes(db);
    const lowered = process.platform === 'linux' ? loweredThreads() : 0;
    let reached!: () => void;
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (reached = resolve));
    const importing = store.importTmx(
      threaded,
      pieces(file, { at: 8, reached, resume: new Promise((resolve) => (resume = resolve)) }),
      new AbortController().signal,
    );
    await paused;
    // Mid-import, its thread is one of the process's lowered threads.
    if (process.platform === 'linux') expect(loweredThreads()).toBe(lowered + 1);
    resume();
    const summary = await importing;
    // The event loop's connection wrote none of the thread's rows.
    expect(changes(db)).toBe(before);
    expect(importThreadStats.starts).toBe(starts + 1);
    expect(summary).toEqual(loopSummary);
    await store.finish(threaded, summary.source, summary.targets, summary.segments);
    expect(changes(db)).toBe(before + 1);

    const loopRows = rowsOf(db, onLoop);
    expect(loopRows.segments).toHaveLength(UNITS);
    expect(loopRows.postings.length).toBeGreaterThan(THREAD_WORDS);
    expect(rowsOf(db, threaded)).toEqual(loopRows);
    expect((await store.lookup(threaded, units[42]![0], 'es', 100))?.target).toBe(
      units[42]![1].replace(/<ph.*<\/ph>/, ''),
    );
  });

  it('stops a cancelled import between two transactions; the memory is then deleted whole', async () => {
    const memoryId = await store.begin('acct', 'cancelled');
    const controller = new AbortController();
    let reached!: () => void;
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (reached = resolve));
    const importing = store.importTmx(
      memoryId,
      pieces(file, { at: 8, reached, resume: new Promise((resolve) => (resume = resolve)) }),
      controller.signal,
    );
    await paused;
    controller.abort(new Error('cancelled'));
    resume();
    await expect(importing).rejects.toThrow('cancelled');
    const writes = importThreadStats.writes;
    const written = rowsOf(db, memoryId).segments.length;
    expect(written).toBeLessThan(UNITS);
    // The thread has ended (the import settles after it): nothing more is written.
    expect(importThreadStats.writes).toBe(writes);
    expect(rowsOf(db, memoryId).segments).toHaveLength(written);
    await store.discard(memoryId);
    expect(rowsOf(db, memoryId)).toEqual({ segments: [], targets: [], postings: [] });
  });

  it('a memory is deleted on a thread, the event loop only hiding it, once no thread’s write is in flight', async () => {
    const memoryId = await store.begin('acct', 'deleted');
    const many = Array.from({ length: 8 }, () => units).flat();
    await writeInBatches(store.addBatch)(
      memoryId,
      pieces(Buffer.from(tmx(many))),
      new AbortController().signal,
    );
    const count = () => rowsOf(db, memoryId).segments.length;
    expect(count()).toBe(many.length);
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // A thread's write in flight on the file: the deletion waits for it, without touching a row.
    let end!: () => void;
    trackThreadWrite(db.name, new Promise<void>((resolve) => (end = resolve)));
    const starts = importThreadStats.starts;
    const before = changes(db);
    const removing = store.remove(memoryId);
    for (let i = 0; i < 20; i++) await turn();
    expect(count()).toBe(many.length);
    expect(importThreadStats.starts).toBe(starts);
    end();
    await removing;
    expect(rowsOf(db, memoryId)).toEqual({ segments: [], targets: [], postings: [] });
    expect(db.prepare('SELECT COUNT(*) AS n FROM memories WHERE id = ?').get(memoryId)).toEqual({ n: 0 });
    // A thread deleted the rows: the event loop's connection only hid the memory.
    expect(importThreadStats.starts).toBe(starts + 1);
    expect(changes(db)).toBe(before + 1);
  });

  it('fails a file it cannot read as the event loop does', async () => {
    const broken = Buffer.from(tmx(units.slice(0, 10)).replace('</body>', '</bod>'));
    const expected = await readTmx(pieces(broken), () => {}).catch((error: Error) => error);
    expect(expected).toBeInstanceOf(Error);
    const memoryId = await store.begin('acct', 'broken');
    const failed = await store
      .importTmx(memoryId, pieces(broken), new AbortController().signal)
      .catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).name).toBe((expected as Error).name);
    expect((failed as Error).message).toBe((expected as Error).message);
    await store.discard(memoryId);
    db.close();
  });
});
