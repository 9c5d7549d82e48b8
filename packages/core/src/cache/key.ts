/**
 * The cache key: a hash of everything that changes a translation's output (DESIGN.md, "Cache key").
 */
import { createHash } from 'node:crypto';

export interface CacheKeyParts {
  /** The segment source with codes; normalized here (NFC, line endings, outer whitespace). */
  readonly source: string;
  readonly sourceLang?: string;
  readonly targetLang: string;
  readonly formality?: string;
  /** Hash of the glossary's *content* (not its id, which changes when it is re-created). */
  readonly glossaryHash?: string;
  readonly memory?: { readonly id: string; readonly version: string | number };
  readonly styleList?: { readonly id: string; readonly version: string | number };
  readonly customInstructions?: readonly string[];
  readonly context?: string;
  readonly modelType?: string;
  readonly tagHandlingVersion?: string;
  /** Identifies what produces output on the service (engine, data version); `''` when unknown. */
  readonly engineFingerprint?: string;
}

/** NFC, `\r\n` → `\n`, trimmed: sources that differ only in these translate the same. */
export function normalizeSource(source: string): string {
  return source.normalize('NFC').replace(/\r\n?/g, '\n').trim();
}

/** sha256 (hex) of a canonical JSON array of every part; a missing part and `''` differ from each other. */
export function cacheKey(parts: CacheKeyParts): string {
  return cacheKeyer(parts)(parts.source);
}

/**
 * The cache key of any source with the other parts fixed: the canonical JSON of those parts is built
 * once, so a run keys each segment with one `JSON.stringify` of its source and one hash.
 */
export function cacheKeyer(parts: Omit<CacheKeyParts, 'source'>): (source: string) => string {
  const rest = JSON.stringify([
    parts.sourceLang?.toLowerCase() ?? null,
    parts.targetLang.toLowerCase(),
    parts.formality ?? null,
    parts.glossaryHash ?? null,
    parts.memory ? [parts.memory.id, String(parts.memory.version)] : null,
    parts.styleList ? [parts.styleList.id, String(parts.styleList.version)] : null,
    parts.customInstructions ?? null,
    parts.context ?? null,
    parts.modelType ?? null,
    parts.tagHandlingVersion ?? null,
    parts.engineFingerprint ?? null,
  ]).slice(1); // `…]`: appended after the source
  return (source) =>
    createHash('sha256')
      .update(`["glossa-cache-v1",${JSON.stringify(normalizeSource(source))},${rest}`)
      .digest('hex');
}

/** Short content hash used in the lock and in resource names. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
