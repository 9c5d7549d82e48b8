/**
 * A namespace's source catalog as the backend holds it: the JSON text and its hash, which key the built
 * catalogs in the cache, so a read served from the cache neither parses nor extracts the source. The
 * parsed catalog and its extraction are made on first use, once.
 */
import { createHash } from 'node:crypto';
import { type Catalog, type CatalogExtraction, checkedCatalog, extractCatalog } from './catalog.js';

export interface NamespaceSource {
  /** Segment key prefix, e.g. `common.json`. */
  readonly file: string;
  /** SHA-256 of the source catalog's JSON text. */
  readonly hash: string;
  /** The parsed catalog (the backend's own copy: `create` adds keys to it). Throws `CatalogError`. */
  catalog(): Catalog;
  extraction(): CatalogExtraction;
}

export interface SourceOptions {
  readonly file: string;
  readonly keySeparator: string;
  /** Called when the text is not a catalog (before the `CatalogError` is thrown). */
  readonly onInvalid?: () => void;
}

export function sourceOf(text: string, options: SourceOptions): NamespaceSource {
  let catalog: Catalog | undefined;
  let extraction: CatalogExtraction | undefined;
  const source: NamespaceSource = {
    file: options.file,
    hash: createHash('sha256').update(text).digest('hex'),
    catalog() {
      try {
        catalog ??= checkedCatalog(text, options.file);
      } catch (error) {
        options.onInvalid?.();
        throw error;
      }
      return catalog;
    },
    extraction() {
      extraction ??= extractCatalog(source.catalog(), {
        file: options.file,
        keySeparator: options.keySeparator,
      });
      return extraction;
    },
  };
  return source;
}
