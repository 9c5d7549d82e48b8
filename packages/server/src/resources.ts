import { createGlossaryStore, type GlossaryRecord, type GlossaryStore } from './glossaries/store.js';
import { createMemoryJobs, type MemoryJobs } from './memories/jobs.js';
import { createUrlSigner, type UrlSigner } from './memories/signed-url.js';
import { createMemoryStore, type MemoryRecord, type MemoryStore } from './memories/store.js';
import { openResourceDatabase } from './storage/resource-db.js';
import type { Storage } from './storage/storage.js';
import { createStyleListStore, type StyleListRecord, type StyleListStore } from './style-rules/store.js';

/**
 * What accounts own beside keys and usage: glossaries, style rule lists, translation memories and their
 * jobs. Every lookup is scoped to the account: another account's id is "not found".
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

/** Opens `resources.sqlite` in the data directory and resumes memory jobs a stop interrupted. */
export async function createResourceStore(dataDir: string, storage: Storage): Promise<ResourceStore> {
  const db = openResourceDatabase(dataDir);
  try {
    const glossaries = createGlossaryStore(db);
    const styleLists = createStyleListStore(db);
    const memories = createMemoryStore(db);
    const jobs = createMemoryJobs(db, memories, dataDir);
    const signer = await createUrlSigner(storage);
    jobs.resume();
    return {
      glossaries,
      styleLists,
      memories,
      jobs,
      signer,
      glossary: (accountId, id) => glossaries.get(accountId, id),
      translationMemory: async (accountId, id) => memories.get(accountId, id),
      styleList: (accountId, id) => styleLists.get(accountId, id),
      async close() {
        await jobs.close();
        if (db.open) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
