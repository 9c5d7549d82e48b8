/**
 * Resource sync: local glossaries (TSV/CSV), translation memories (TMX) and style rule lists (config)
 * made available on the service, idempotently. Each is created under a name carrying its content hash
 * and reused while the content is unchanged; superseded glossaries Glossa created are deleted.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { GlossaClient } from '@glossa/client';
import {
  MAX_GLOSSARIES_PER_ACCOUNT,
  MAX_STYLE_RULES_PAGE_SIZE,
  MAX_TRANSLATION_MEMORIES_PAGE_SIZE,
} from '@glossa/protocol';
import { contentHash } from '../cache/key.js';
import { ResourceSyncError } from '../errors.js';
import { readGlossaryFile } from './glossary-file.js';

/** The client methods resource sync uses (`GlossaClient` has them). */
export type ResourceClient = Pick<GlossaClient, 'glossariesV2' | 'translationMemories' | 'styleRules'>;

/** Names of everything resource sync creates start with this. */
export const MANAGED_PREFIX = 'glossa:';

export interface SyncedGlossary {
  readonly glossaryId: string;
  readonly name: string;
  /** Content hash, for the cache key. */
  readonly hash: string;
  readonly created: boolean;
}

const stem = (file: string) => basename(file, extname(file));

/** Creates the glossary for `file` and the pair unless one with the same content already exists. */
export async function syncGlossary(
  client: ResourceClient,
  options: { file: string; sourceLang: string; targetLang: string },
): Promise<SyncedGlossary> {
  const { terms, hash } = await readGlossaryFile(options.file, options);
  const name = `${MANAGED_PREFIX}${stem(options.file)}:${options.sourceLang}-${options.targetLang}:${hash}`;
  const all = await client.glossariesV2.list();
  const existing = all.find((g) => g.name === name);
  if (existing) return { glossaryId: existing.glossary_id, name, hash, created: false };
  if (all.length >= MAX_GLOSSARIES_PER_ACCOUNT) {
    throw new ResourceSyncError(
      `The account holds ${all.length} glossaries, the limit is ${MAX_GLOSSARIES_PER_ACCOUNT}: run cleanupGlossaries() first`,
    );
  }
  const created = await client.glossariesV2.create({
    name,
    sourceLang: options.sourceLang,
    targetLang: options.targetLang,
    entries: terms,
  });
  return { glossaryId: created.glossary_id, name, hash, created: true };
}

/** Deletes glossaries Glossa created that are not in `keep` (superseded versions). Returns their ids. */
export async function cleanupGlossaries(
  client: ResourceClient,
  keep: readonly SyncedGlossary[],
): Promise<string[]> {
  const kept = new Set(keep.map((g) => g.glossaryId));
  const stale = (await client.glossariesV2.list()).filter(
    (g) => g.name.startsWith(MANAGED_PREFIX) && !kept.has(g.glossary_id),
  );
  for (const g of stale) await client.glossariesV2.delete(g.glossary_id);
  return stale.map((g) => g.glossary_id);
}

export interface SyncedMemory {
  readonly translationMemoryId: string;
  readonly name: string;
  /** Content hash: the memory's version for the cache key. */
  readonly hash: string;
  readonly created: boolean;
}

/**
 * Imports the TMX at `file` (or the given `content`, named after `file`) through an import job, polled,
 * unless a memory with the same content exists.
 */
export async function syncMemory(
  client: ResourceClient,
  options: { file: string; content?: string },
): Promise<SyncedMemory> {
  let bytes: Buffer;
  try {
    bytes = options.content !== undefined ? Buffer.from(options.content) : await readFile(options.file);
  } catch (error) {
    throw new ResourceSyncError(`Cannot read memory ${options.file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const hash = contentHash(bytes.toString('utf8'));
  const name = `${MANAGED_PREFIX}${stem(options.file)}:${hash}`;
  for (let page = 0; ; page++) {
    const list = await client.translationMemories.list({
      page,
      pageSize: MAX_TRANSLATION_MEMORIES_PAGE_SIZE,
    });
    const found = list.translation_memories.find((m) => m.name === name);
    if (found) return { translationMemoryId: found.translation_memory_id, name, hash, created: false };
    const seen = (page + 1) * MAX_TRANSLATION_MEMORIES_PAGE_SIZE;
    if (seen >= list.total_count || list.translation_memories.length === 0) break;
  }
  const result = await client.translationMemories.import(bytes, { name, fileName: basename(options.file) });
  if (result.status !== 'completed' || !result.translation_memory_id) {
    throw new ResourceSyncError(
      `Importing ${options.file} ended ${result.status}: ${result.error?.message ?? 'no memory id'}`,
    );
  }
  return { translationMemoryId: result.translation_memory_id, name, hash, created: true };
}

export interface StyleListConfig {
  readonly name: string;
  readonly language: string;
  readonly configuredRules?: Record<string, Record<string, string>>;
  readonly customInstructions?: readonly { label: string; prompt: string; sourceLanguage?: string }[];
}

export interface SyncedStyleList {
  readonly styleId: string;
  readonly name: string;
  readonly version: number;
  readonly created: boolean;
}

/** Creates the style list from config unless one with the same content exists. */
export async function syncStyleList(
  client: ResourceClient,
  config: StyleListConfig,
): Promise<SyncedStyleList> {
  const hash = contentHash(
    JSON.stringify([config.language, config.configuredRules ?? {}, config.customInstructions ?? []]),
  );
  const name = `${MANAGED_PREFIX}${config.name}:${hash}`;
  for (let page = 0; ; page++) {
    const lists = await client.styleRules.list({ page, pageSize: MAX_STYLE_RULES_PAGE_SIZE });
    const found = lists.find((l) => l.name === name);
    if (found) return { styleId: found.style_id, name, version: found.version, created: false };
    if (lists.length < MAX_STYLE_RULES_PAGE_SIZE) break;
  }
  const created = await client.styleRules.create({
    name,
    language: config.language,
    ...(config.configuredRules && { configuredRules: config.configuredRules }),
    ...(config.customInstructions && { customInstructions: [...config.customInstructions] }),
  });
  return { styleId: created.style_id, name, version: created.version, created: true };
}
