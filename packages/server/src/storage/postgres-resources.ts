/**
 * Glossaries, style rule lists and translation memories in PostgreSQL: the fleet's implementation of the
 * resource stores (`glossaries/store.ts`, `style-rules/store.ts`, `memories/store.ts` for SQLite), shared
 * by every instance on the same database. The tables are those of `resource-db.ts`, in their own
 * migrations (counted in `glossa_resources_schema`); every query is scoped by the owning account, and
 * what SQLite does in one (immediate) transaction is one transaction here, with the row or the account
 * locked where SQLite's single writer made a check and a write atomic.
 */
import { randomUUID } from 'node:crypto';
import { MAX_GLOSSARIES_PER_ACCOUNT, MAX_GLOSSARY_BYTES, utf8Length } from '@glossa/protocol';
import type pg from 'pg';
import { badRequest } from '../errors.js';
import {
  type GlossaryRecord,
  type GlossaryRow,
  type GlossaryStore,
  mergedDictionary,
  type NewDictionary,
  tsvTableInSlices,
  tsvText,
} from '../glossaries/store.js';
import { type StyleListRow, type StyleListStore, styleListOf, withId } from '../style-rules/store.js';

export const POSTGRES_RESOURCE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE glossaries (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
  );
  CREATE INDEX glossaries_account ON glossaries(account_id, created_at);
  CREATE TABLE glossary_dictionaries (
    glossary_id TEXT NOT NULL REFERENCES glossaries(id) ON DELETE CASCADE,
    source_lang TEXT NOT NULL,
    target_lang TEXT NOT NULL,
    entries TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    PRIMARY KEY (glossary_id, source_lang, target_lang)
  );

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
    ready BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TEXT NOT NULL
  );
  CREATE INDEX memories_account ON memories(account_id, ready, created_at);
  CREATE TABLE memory_segments (
    id BIGSERIAL PRIMARY KEY,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    source_text TEXT NOT NULL,
    source_key TEXT NOT NULL,
    token_count INTEGER NOT NULL,
    tokens TEXT NOT NULL DEFAULT '',
    source_tagged TEXT
  );
  CREATE INDEX memory_segments_exact ON memory_segments(memory_id, source_key);
  CREATE INDEX memory_segments_memory ON memory_segments(memory_id, id);
  CREATE TABLE memory_targets (
    segment_id BIGINT NOT NULL REFERENCES memory_segments(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    language TEXT NOT NULL,
    text TEXT NOT NULL,
    tagged TEXT,
    PRIMARY KEY (segment_id, seq)
  );
  -- Segment ids as a JSON array, as in SQLite: one row per token and memory, written when an import ends.
  CREATE TABLE memory_postings (
    memory_id TEXT NOT NULL,
    gram TEXT NOT NULL,
    segments INTEGER NOT NULL,
    ids TEXT NOT NULL,
    PRIMARY KEY (memory_id, gram)
  );

  CREATE TABLE memory_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    operation TEXT NOT NULL CHECK (operation IN ('import', 'export')),
    status TEXT NOT NULL,
    parameters TEXT NOT NULL,
    memory_id TEXT,
    content_length BIGINT,
    file_name TEXT,
    error TEXT,
    skipped INTEGER,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- The instance running it ('host/pid/random', see postgres-memory-jobs.ts; NULL: queued), and how
    -- many times a worker claimed it (finishing is conditional on it).
    owner TEXT,
    attempt INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX memory_jobs_status ON memory_jobs(status);
  CREATE INDEX memory_jobs_export ON memory_jobs(account_id, memory_id, operation);
  -- The uploaded TMX of an import, and the TMX of a finished export: every instance reads them here.
  CREATE TABLE memory_files (
    job_id TEXT PRIMARY KEY REFERENCES memory_jobs(id) ON DELETE CASCADE,
    content BYTEA NOT NULL
  );
  `,
  // Memory jobs fence their record on the runner's jobs row (postgres-memory-jobs.ts): these went unused.
  `
  ALTER TABLE memory_jobs DROP COLUMN owner, DROP COLUMN attempt;
  `,
  // Memory imports and exports are runner jobs with job files (memories/jobs.ts): their records and files went
  // unused.
  `
  DROP TABLE IF EXISTS memory_files;
  DROP TABLE IF EXISTS memory_jobs;
  `,
];

/** A pool or a client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

/** Runs `work` in one transaction on a client of the pool. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export function createPostgresGlossaryStore(pool: pg.Pool): GlossaryStore {
  const record = async (db: Queryable, row: GlossaryRow): Promise<GlossaryRecord> => {
    const { rows } = await db.query<{ source_lang: string; target_lang: string; entry_count: number }>(
      `SELECT source_lang, target_lang, entry_count FROM glossary_dictionaries WHERE glossary_id = $1
       ORDER BY source_lang COLLATE "C", target_lang COLLATE "C"`,
      [row.id],
    );
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
      dictionaries: rows.map((dictionary) => ({
        source: dictionary.source_lang,
        target: dictionary.target_lang,
        entryCount: dictionary.entry_count,
      })),
    };
  };
  const owned = async (db: Queryable, accountId: string, id: string, lock = false) =>
    (
      await db.query<GlossaryRow>(
        `SELECT id, name, created_at, updated_at, version FROM glossaries WHERE account_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [accountId, id],
      )
    ).rows[0];
  const writeDictionary = async (db: Queryable, id: string, dictionary: NewDictionary) => {
    // A large dictionary's UTF-8 (parsed on the glossary thread) becomes text again: `pg` sends strings.
    const tsv = tsvText(dictionary);
    if (utf8Length(tsv) > MAX_GLOSSARY_BYTES)
      throw badRequest('Glossary too large.', `Entries exceed ${MAX_GLOSSARY_BYTES} bytes.`);
    await db.query(
      `INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entries, entry_count)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (glossary_id, source_lang, target_lang)
       DO UPDATE SET entries = excluded.entries, entry_count = excluded.entry_count`,
      [id, dictionary.source, dictionary.target, tsv, dictionary.entryCount],
    );
  };
  const touch = (db: Queryable, id: string) =>
    db.query('UPDATE glossaries SET updated_at = $1, version = version + 1 WHERE id = $2', [
      new Date().toISOString(),
      id,
    ]);

  return {
    create: (accountId, name, dictionaries) =>
      transaction(pool, async (client) => {
        // The account's glossaries are counted and one added atomically, across instances.
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 23))', [accountId]);
        const { rows } = await client.query<{ n: string }>(
          'SELECT COUNT(*) AS n FROM glossaries WHERE account_id = $1',
          [accountId],
        );
        if (Number(rows[0]!.n) >= MAX_GLOSSARIES_PER_ACCOUNT) {
          throw badRequest(
            `Too many glossaries: an account can hold at most ${MAX_GLOSSARIES_PER_ACCOUNT}. Delete one first.`,
          );
        }
        const id = randomUUID();
        const now = new Date().toISOString();
        await client.query(
          'INSERT INTO glossaries (id, account_id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
          [id, accountId, name, now],
        );
        for (const dictionary of dictionaries) await writeDictionary(client, id, dictionary);
        return record(client, (await owned(client, accountId, id))!);
      }),
    async list(accountId) {
      const { rows } = await pool.query<GlossaryRow>(
        `SELECT id, name, created_at, updated_at, version FROM glossaries WHERE account_id = $1
         ORDER BY created_at COLLATE "C", id COLLATE "C"`,
        [accountId],
      );
      return Promise.all(rows.map((row) => record(pool, row)));
    },
    async get(accountId, id) {
      const row = await owned(pool, accountId, id);
      return row && record(pool, row);
    },
    async entries(accountId, id, source, target) {
      return (await this.entryTable(accountId, id, source, target))?.toArray();
    },
    async entryTable(accountId, id, source, target) {
      const { rows } = await pool.query<{ entries: string }>(
        `SELECT d.entries FROM glossary_dictionaries d JOIN glossaries g ON g.id = d.glossary_id
         WHERE g.account_id = $1 AND g.id = $2 AND d.source_lang = $3 AND d.target_lang = $4`,
        [accountId, id, source, target],
      );
      return rows[0] && tsvTableInSlices(rows[0].entries);
    },
    async rename(accountId, id, name) {
      const { rowCount } = await pool.query(
        'UPDATE glossaries SET name = $1, updated_at = $2, version = version + 1 WHERE account_id = $3 AND id = $4',
        [name, new Date().toISOString(), accountId, id],
      );
      return (rowCount ?? 0) > 0;
    },
    putDictionary: (accountId, id, dictionary, merge) =>
      transaction(pool, async (client) => {
        if (!(await owned(client, accountId, id, true))) return false;
        let written = dictionary;
        if (merge) {
          const { rows } = await client.query<{ entries: string }>(
            'SELECT entries FROM glossary_dictionaries WHERE glossary_id = $1 AND source_lang = $2 AND target_lang = $3',
            [id, dictionary.source, dictionary.target],
          );
          if (rows[0]) written = mergedDictionary(rows[0].entries, dictionary);
        }
        await writeDictionary(client, id, written);
        await touch(client, id);
        return true;
      }),
    deleteDictionary: (accountId, id, source, target) =>
      transaction(pool, async (client) => {
        if (!(await owned(client, accountId, id, true))) return false;
        const { rowCount } = await client.query(
          'DELETE FROM glossary_dictionaries WHERE glossary_id = $1 AND source_lang = $2 AND target_lang = $3',
          [id, source, target],
        );
        if ((rowCount ?? 0) === 0) return false;
        await touch(client, id);
        return true;
      }),
    async delete(accountId, id) {
      const { rowCount } = await pool.query('DELETE FROM glossaries WHERE account_id = $1 AND id = $2', [
        accountId,
        id,
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}

export function createPostgresStyleListStore(pool: pg.Pool): StyleListStore {
  const get = async (db: Queryable, accountId: string, id: string, lock = false) => {
    const { rows } = await db.query<StyleListRow>(
      `SELECT * FROM style_lists WHERE account_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [accountId, id],
    );
    return rows[0] && styleListOf(rows[0]);
  };
  return {
    async create(accountId, list) {
      const id = randomUUID();
      const now = new Date().toISOString();
      const { rows } = await pool.query<StyleListRow>(
        `INSERT INTO style_lists (id, account_id, name, language, version, configured_rules, custom_instructions, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $7) RETURNING *`,
        [
          id,
          accountId,
          list.name,
          list.language,
          JSON.stringify(list.configuredRules),
          JSON.stringify(list.customInstructions.map((input) => withId(input))),
          now,
        ],
      );
      return styleListOf(rows[0]!);
    },
    async list(accountId, offset, limit) {
      const { rows } = await pool.query<StyleListRow>(
        'SELECT * FROM style_lists WHERE account_id = $1 ORDER BY created_at COLLATE "C", id COLLATE "C" LIMIT $2 OFFSET $3',
        [accountId, limit, offset],
      );
      return rows.map(styleListOf);
    },
    get: (accountId, id) => get(pool, accountId, id),
    update: (accountId, id, change) =>
      transaction(pool, async (client) => {
        const current = await get(client, accountId, id, true);
        if (!current) return undefined;
        const next = change(current);
        if (!next) return current;
        const { rows } = await client.query<StyleListRow>(
          `UPDATE style_lists SET name = $1, configured_rules = $2, custom_instructions = $3, version = version + 1,
           updated_at = $4 WHERE account_id = $5 AND id = $6 RETURNING *`,
          [
            next.name ?? current.name,
            JSON.stringify(next.configuredRules ?? current.configuredRules),
            JSON.stringify(next.customInstructions ?? current.customInstructions),
            new Date().toISOString(),
            accountId,
            id,
          ],
        );
        return styleListOf(rows[0]!);
      }),
    async delete(accountId, id) {
      const { rowCount } = await pool.query('DELETE FROM style_lists WHERE account_id = $1 AND id = $2', [
        accountId,
        id,
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}
