/**
 * Processes that open the same data directory at once (the examples' builds share one) apply each migration
 * once: a migration is applied only after the count is read inside its write transaction. Before, each
 * process read the count first, and the ones that read it before another had migrated ran the same migration
 * again ("index glossary_dictionaries_counts already exists" broke four example builds). The processes are
 * started together; a run where they do not overlap passes without exercising the race, so the same is also
 * checked in one process, with a second connection migrating between the count's read and the migration.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { migrateSqlite } from '../src/storage/sqlite-migrate.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-migrate-'));
  dirs.push(dir);
  return dir;
};

const MIGRATIONS = ['CREATE TABLE t (x)', 'CREATE INDEX t_x ON t(x)', 'INSERT INTO t VALUES (1)'];

it('a migration another connection applied while this one waited is not applied again', () => {
  const file = join(tempDir(), 'db.sqlite');
  const first = new Database(file);
  const second = new Database(file);
  first.pragma('journal_mode = WAL');
  // The second connection migrates right after the first has read the count, if it read it outside a write
  // transaction: the first would then run `CREATE TABLE t` again.
  let raced = false;
  const reading = new Proxy(first, {
    get(target, name) {
      if (name !== 'pragma') return Reflect.get(target, name);
      return (source: string, options?: { simple?: boolean }) => {
        const value = target.pragma(source, options);
        if (!raced && source === 'user_version') {
          raced = true;
          // Inside a write transaction nobody else can write: there the second connection would only wait.
          if (!first.inTransaction) migrateSqlite(second, MIGRATIONS);
        }
        return value;
      };
    },
  });
  migrateSqlite(reading, MIGRATIONS);
  expect(raced).toBe(true);
  expect(first.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
  expect(first.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  first.close();
  second.close();
});

it('six processes opening a new data directory at once all start, and each migration runs once', async () => {
  const dataDir = tempDir();
  const child = `
    import { openResourceDatabase } from ${JSON.stringify(new URL('../src/storage/resource-db.ts', import.meta.url).pathname)};
    openResourceDatabase(process.argv[1]).close();
  `;
  const codes = await Promise.all(
    Array.from(
      { length: 6 },
      () =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const process_ = spawn(
            process.execPath,
            ['--import', 'tsx', '--input-type=module', '-e', child, dataDir],
            {
              stdio: ['ignore', 'ignore', 'pipe'],
            },
          );
          let stderr = '';
          process_.stderr.on('data', (chunk) => {
            stderr += chunk;
          });
          process_.on('close', (code) => resolve({ code, stderr }));
        }),
    ),
  );
  expect(codes).toEqual(codes.map(() => ({ code: 0, stderr: '' })));
});
