import pg from 'pg';
import { createGlossaryStore, type GlossaryRecord, type GlossaryStore } from './glossaries/store.js';
import type { JobRunner } from './jobs/job-runner.js';
import { createMemoryJobs, type MemoryJobs, sqliteMemoryWriter } from './memories/jobs.js';
import { createUrlSigner, type UrlSigner } from './memories/signed-url.js';
import { createMemoryStore, type MemoryRecord, type MemoryStore } from './memories/store.js';
import { migratePostgres } from './storage/postgres.js';
import { createPostgresMemoryStore } from './storage/postgres-memories.js';
import { postgresMemoryWriter } from './storage/postgres-memory-jobs.js';
import {
  createPostgresGlossaryStore,
  createPostgresStyleListStore,
  POSTGRES_RESOURCE_MIGRATIONS,
} from './storage/postgres-resources.js';
import { openResourceDatabase } from './storage/resource-db.js';
import type { Storage } from './storage/storage.js';
import { createStyleListStore, type StyleListRecord, type StyleListStore } from './style-rules/store.js';

/**
 * What accounts own beside keys and usage: glossaries, style rule lists, translation memories and their
 * jobs. Every lookup is scoped to the account: another account's id is "not found". One interface, two
 * backends: SQLite (`resources.sqlite` in the data directory) and PostgreSQL (shared by a fleet); memory jobs
 * run on the server's job runner.
 */
export interface ResourceStore {
  readonly glossaries: GlossaryStore;
  readonly styleLists: StyleListStore;
  readonly memories: MemoryStore;
  readonly jobs: MemoryJobs;
  readonly signer: UrlSigner;
  /** The glossary (dictionaries as root-language pairs), or undefined. */
  glossary(accountId: string, id: string): Promise<GlossaryRecord | undefined>;
  /** The translation memory (`source`, `targets` as root languages), or undefined. */
  translationMemory(accountId: string, id: string): Promise<MemoryRecord | undefined>;
  /** The style rule list (`language` is its root language), or undefined. */
  styleList(accountId: string, id: string): Promise<StyleListRecord | undefined>;
  close(): Promise<void>;
}

export interface ResourceStoreOptions {
  /** The server's job runner (`ServiceContext.jobs`): memory imports and exports run on it. */
  readonly jobs: JobRunner;
  /** PostgreSQL instead of SQLite in the data directory. */
  readonly databaseUrl?: string | undefined;
  /** A pool on `databaseUrl` to use (its owner closes it); default: a pool of this store's own. */
  readonly pool?: pg.Pool;
  readonly databasePoolSize?: number;
  readonly onError?: (error: unknown) => void;
}

function assemble(
  parts: Pick<ResourceStore, 'glossaries' | 'styleLists' | 'memories' | 'jobs' | 'signer'>,
  close: () => Promise<void>,
): ResourceStore {
  return {
    ...parts,
    glossary: (accountId, id) => parts.glossaries.get(accountId, id),
    translationMemory: (accountId, id) => parts.memories.get(accountId, id),
    styleList: (accountId, id) => parts.styleLists.get(accountId, id),
    close,
  };
}

/**
 * Opens the resources: `resources.sqlite` in the data directory, or the PostgreSQL database at
 * `databaseUrl` (migrated).
 */
export async function createResourceStore(
  dataDir: string,
  storage: Storage,
  options: ResourceStoreOptions,
): Promise<ResourceStore> {
  const signer = await createUrlSigner(storage);
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    const owned = !options.pool;
    const pool = options.pool ?? new pg.Pool({ connectionString: url, max: options.databasePoolSize ?? 10 });
    // An idle client losing its connection (a database restart) must not crash the process.
    if (owned) pool.on('error', () => {});
    const end = async () => {
      if (owned) await pool.end();
    };
    try {
      await migratePostgres(pool, 'glossa_resources_schema', POSTGRES_RESOURCE_MIGRATIONS);
      const memories = createPostgresMemoryStore(pool);
      const jobs = createMemoryJobs(options.jobs, memories, postgresMemoryWriter(pool, memories));
      return assemble(
        {
          glossaries: createPostgresGlossaryStore(pool),
          styleLists: createPostgresStyleListStore(pool),
          memories,
          jobs,
          signer,
        },
        end,
      );
    } catch (error) {
      await end();
      throw error;
    }
  }
  const db = openResourceDatabase(dataDir);
  try {
    const memories = createMemoryStore(db);
    const jobs = createMemoryJobs(options.jobs, memories, sqliteMemoryWriter(memories));
    return assemble(
      {
        glossaries: createGlossaryStore(db),
        styleLists: createStyleListStore(db),
        memories,
        jobs,
        signer,
      },
      async () => {
        if (db.open) db.close();
      },
    );
  } catch (error) {
    db.close();
    throw error;
  }
}
