import type Database from 'better-sqlite3';

/**
 * Applies a SQLite file's migrations in order, one `BEGIN IMMEDIATE` transaction each, keeping the count
 * applied in `PRAGMA user_version`. The count is read inside the transaction, so processes opening the same
 * file at once (builds sharing a data directory) apply each migration once: a second one waits for the
 * first's write lock (`busy_timeout`), then finds it applied.
 */
export function migrateSqlite(db: Database.Database, migrations: readonly string[]): void {
  const step = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version >= migrations.length) return false;
    db.exec(migrations[version] as string);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate()) {}
}
