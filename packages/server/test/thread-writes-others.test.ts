/**
 * Issue 31: style lists and memories share the resource database's event-loop connection with the glossary
 * store. While the glossary thread writes a large dictionary on the same file, their writes await the
 * thread's writes asynchronously (after it, in order) instead of blocking on SQLite's write lock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_THREAD_CHARS, threadWritesSettled } from '../src/glossaries/db-thread.js';
import { createGlossaryStore } from '../src/glossaries/store.js';
import { createMemoryStore } from '../src/memories/store.js';
import { openResourceDatabase } from '../src/storage/resource-db.js';
import { createStyleListStore } from '../src/style-rules/store.js';

const tsv = Array.from({ length: 20_000 }, (_, i) => `term${i}\tobjetivo${i}`).join('\n');

/** Runs `other` while a large glossary is being written on the database thread; returns the finishing order. */
async function orderBeside(
  prepare: (db: ReturnType<typeof openResourceDatabase>) => Promise<() => Promise<unknown>>,
) {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-thread-others-'));
  try {
    const db = openResourceDatabase(dir);
    const glossaries = createGlossaryStore(db);
    const other = await prepare(db);
    expect(tsv.length).toBeGreaterThan(DB_THREAD_CHARS);
    const order: string[] = [];
    const large = glossaries
      .create('a', 'large', [{ source: 'en', target: 'es', tsv, entryCount: 20_000 }])
      .then(() => order.push('glossary'));
    // The large write is sent to the thread once its text is encoded; the other write is asked for meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    expect(threadWritesSettled(db.name)).toBeDefined();
    const small = other().then(() => order.push('other'));
    await Promise.all([large, small]);
    expect(threadWritesSettled(db.name)).toBeUndefined();
    db.close();
    return order;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Db = ReturnType<typeof openResourceDatabase>;
const newList = { name: 'house', language: 'en', configuredRules: {}, customInstructions: [] };

describe("other stores' writes while the glossary thread writes the same file", () => {
  it('a style list is created after the thread write, not on the SQLite lock', async () => {
    const order = await orderBeside(async (db: Db) => () => createStyleListStore(db).create('b', newList));
    expect(order).toEqual(['glossary', 'other']);
  });

  it('a style list is updated and deleted after the thread write', async () => {
    const updated = await orderBeside(async (db: Db) => {
      const styles = createStyleListStore(db);
      const list = await styles.create('b', newList);
      return async () => expect((await styles.update('b', list.id, () => ({ name: 'y' })))?.version).toBe(2);
    });
    expect(updated).toEqual(['glossary', 'other']);
    const deleted = await orderBeside(async (db: Db) => {
      const styles = createStyleListStore(db);
      const list = await styles.create('b', newList);
      return async () => expect(await styles.delete('b', list.id)).toBe(true);
    });
    expect(deleted).toEqual(['glossary', 'other']);
  });

  it('a memory is removed after the thread write, not on the SQLite lock', async () => {
    const order = await orderBeside(async (db: Db) => {
      const memories = createMemoryStore(db);
      const id = await memories.begin('b', 'tm');
      return async () => {
        await memories.remove(id);
        expect(await memories.get('b', id)).toBeUndefined();
      };
    });
    expect(order).toEqual(['glossary', 'other']);
  });
});
