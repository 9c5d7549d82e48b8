/**
 * The database of what accounts own beside their keys and usage: glossaries, style rule lists and
 * translation memories (their import/export jobs are the runner's). It is its own SQLite file next to the
 * spine's (`resources.sqlite` in the data directory) with its own migrations, so the two schemas evolve apart.
 * Every row carries the owning account; every query is scoped by it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSqlite } from './sqlite-migrate.js';

export const RESOURCE_DATABASE_FILE = 'resources.sqlite';

/** Applied in order, one transaction each; the count is kept in `PRAGMA user_version`. Append only. */
export const RESOURCE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE glossaries (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX glossaries_account ON glossaries(account_id, created_at);
  CREATE TABLE glossary_dictionaries (
    glossary_id TEXT NOT NULL REFERENCES glossaries(id) ON DELETE CASCADE,
    source_lang TEXT NOT NULL,
    target_lang TEXT NOT NULL,
    entries TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    PRIMARY KEY (glossary_id, source_lang, target_lang)
  ) WITHOUT ROWID;

  CREATE TABLE style_lists (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    version INTEGER NOT NULL,
    configured_rules TEXT NOT NULL,
    custom_instructions TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX style_lists_account ON style_lists(account_id, created_at, id);

  CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    source_language TEXT NOT NULL,
    target_languages TEXT NOT NULL,
    segment_count INTEGER NOT NULL DEFAULT 0,
    ready INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE INDEX memories_account ON memories(account_id, ready, created_at);
  CREATE TABLE memory_segments (
    id INTEGER PRIMARY KEY,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    source_text TEXT NOT NULL,
    source_key TEXT NOT NULL,
    token_count INTEGER NOT NULL
  );
  CREATE INDEX memory_segments_exact ON memory_segments(memory_id, source_key);
  CREATE INDEX memory_segments_memory ON memory_segments(memory_id, id);
  CREATE TABLE memory_targets (
    segment_id INTEGER NOT NULL REFERENCES memory_segments(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    language TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (segment_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE memory_grams (
    memory_id TEXT NOT NULL,
    gram TEXT NOT NULL,
    segment_id INTEGER NOT NULL,
    PRIMARY KEY (memory_id, gram, segment_id)
  ) WITHOUT ROWID;
  CREATE TABLE memory_gram_counts (
    memory_id TEXT NOT NULL,
    gram TEXT NOT NULL,
    segments INTEGER NOT NULL,
    PRIMARY KEY (memory_id, gram)
  ) WITHOUT ROWID;

  CREATE TABLE memory_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    operation TEXT NOT NULL CHECK (operation IN ('import', 'export')),
    status TEXT NOT NULL,
    parameters TEXT NOT NULL,
    memory_id TEXT,
    content_length INTEGER,
    file_name TEXT,
    error TEXT,
    skipped INTEGER,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX memory_jobs_status ON memory_jobs(status);
  CREATE INDEX memory_jobs_export ON memory_jobs(account_id, memory_id, operation);
  `,
  // Each segment's tokens, joined by U+0001, so that a lookup scores candidates without tokenizing them.
  `ALTER TABLE memory_segments ADD COLUMN tokens TEXT NOT NULL DEFAULT '';`,
  // One row per token and memory holding its posting list (segment ids as a JSON array), written once when
  // an import finishes: a fraction of the writes of one row per token and segment.
  `
  CREATE TABLE memory_postings (
    memory_id TEXT NOT NULL,
    gram TEXT NOT NULL,
    segments INTEGER NOT NULL,
    ids TEXT NOT NULL,
    PRIMARY KEY (memory_id, gram)
  ) WITHOUT ROWID;
  INSERT INTO memory_postings (memory_id, gram, segments, ids)
    SELECT memory_id, gram, COUNT(*), json_group_array(segment_id) FROM memory_grams GROUP BY memory_id, gram;
  DROP TABLE memory_grams;
  DROP TABLE memory_gram_counts;
  `,
  // A counter that changes on every edit of a glossary: compiled matchers are cached by it.
  `ALTER TABLE glossaries ADD COLUMN version INTEGER NOT NULL DEFAULT 1;`,
  // A memory text with inline codes in its normalized TMX form (memories/inline-codes.ts); NULL: no codes.
  `
  ALTER TABLE memory_segments ADD COLUMN source_tagged TEXT;
  ALTER TABLE memory_targets ADD COLUMN tagged TEXT;
  `,
  // Memory imports and exports are runner jobs with job files (memories/jobs.ts): their former records went unused.
  `DROP TABLE IF EXISTS memory_jobs;`,
  // A dictionary's entry count, read without its entries: `entry_count` is stored after the entries, so
  // reading it from the row walks the whole chain of overflow pages of a 10 MiB dictionary (13 ms with the
  // pages cached, about 100 ms not, on the event loop, for every glossary read; issue 31).
  `CREATE INDEX glossary_dictionaries_counts ON glossary_dictionaries(glossary_id, source_lang, target_lang, entry_count);`,
];

/** SQLite's page cache of the resource database's connection, in KiB (`PRAGMA cache_size` = -this). */
export const RESOURCE_CACHE_KIB = 8192;

export type ResourceDatabase = Database.Database;

/** Opens (creating and migrating as needed) `<dataDir>/resources.sqlite` in WAL mode. */
export function openResourceDatabase(dataDir: string): ResourceDatabase {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, RESOURCE_DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // An 8 MiB page cache and no mmap (issue 31): a 32 MiB cache and 256 MiB of mmap kept the database's pages
  // in the process's RSS during a 100 MiB TMX import (the full server's peak 949–1,007 MB without them, 1,121
  // with). Fuzzy lookups read through the OS's page cache instead: p50 1.3–1.6 → 1.9–2.0 ms (bench:memory).
  db.pragma(`cache_size = -${RESOURCE_CACHE_KIB}`);
  migrateSqlite(db, RESOURCE_MIGRATIONS);
  return db;
}
