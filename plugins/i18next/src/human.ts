/**
 * The app's own catalogs for a locale (written by its translators) come first: only the keys missing there
 * are machine translated; the human values are served unchanged. A review file holds the machine
 * translated keys; `mergeReviewed` brings a reviewed one back without overwriting a human value.
 */
import type { Catalog, CatalogExtraction, CatalogValue } from './catalog.js';

const PLURAL = /^(.*?)_(ordinal_)?(zero|one|two|few|many|other)$/;

/** Every string of a catalog by its key path. */
export function flattenCatalog(catalog: Catalog, separator = '.'): Map<string, string> {
  const flat = new Map<string, string>();
  const walk = (value: CatalogValue, path: string[]) => {
    if (typeof value === 'string') flat.set(path.join(separator), value);
    else if (typeof value === 'object' && value !== null)
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(catalog, []);
  return flat;
}

/** A nested catalog from key paths (the inverse of `flattenCatalog` for objects of strings). */
export function unflattenCatalog(flat: ReadonlyMap<string, string>, separator = '.'): Catalog {
  const out: Catalog = {};
  for (const [path, value] of flat) {
    const parts = path.split(separator);
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
      node = node[part] as Catalog;
    }
    node[parts.at(-1)!] = value;
  }
  return out;
}

/** The plural group id (`base` or `base_ordinal`) of a key path, when the source has that group. */
function groupOf(path: string, extraction: CatalogExtraction): string | undefined {
  const m = PLURAL.exec(path);
  if (!m) return undefined;
  const id = `${m[1]}${m[2] ? '_ordinal' : ''}`;
  return extraction.plurals.has(id) ? id : undefined;
}

/**
 * The value key paths of the source that the human catalog covers: its strings, and every form of a plural
 * group of which it has any form (its translators chose the forms).
 */
export function coveredKeys(human: Catalog, extraction: CatalogExtraction, separator = '.'): Set<string> {
  const flat = flattenCatalog(human, separator);
  const groups = new Set<string>();
  for (const path of flat.keys()) {
    const group = groupOf(path, extraction);
    if (group) groups.add(group);
  }
  const covered = new Set<string>();
  for (const path of new Set(extraction.valueKeys.values())) {
    const group = groupOf(path, extraction);
    if (flat.has(path) || (group !== undefined && groups.has(group))) covered.add(path);
  }
  return covered;
}

/** The extraction without the segments of covered values. */
export function withoutCovered(
  extraction: CatalogExtraction,
  covered: ReadonlySet<string>,
): CatalogExtraction {
  if (covered.size === 0) return extraction;
  return {
    ...extraction,
    segments: extraction.segments.filter((s) => !covered.has(extraction.valueKeys.get(s.key) ?? '')),
  };
}

/**
 * The built catalog with the human catalog laid over it: human strings unchanged, keys only the human
 * catalog has kept, and a plural group the human catalog has keeps only the human forms.
 */
export function overlayHuman(
  built: Catalog,
  human: Catalog,
  extraction: CatalogExtraction,
  separator = '.',
): Catalog {
  const humanFlat = flattenCatalog(human, separator);
  const humanGroups = new Set([...humanFlat.keys()].map((p) => groupOf(p, extraction)).filter(Boolean));
  const flat = new Map<string, string>();
  for (const [path, value] of flattenCatalog(built, separator)) {
    const group = groupOf(path, extraction);
    if (group !== undefined && humanGroups.has(group) && !humanFlat.has(path)) continue;
    flat.set(path, humanFlat.get(path) ?? value);
  }
  for (const [path, value] of humanFlat) if (!flat.has(path)) flat.set(path, value);
  return unflattenCatalog(flat, separator);
}

/** The keys of `built` that the human catalog does not have: what a person should review. */
export function machineOnly(
  built: Catalog,
  human: Catalog,
  extraction: CatalogExtraction,
  separator = '.',
): Catalog {
  const covered = coveredKeys(human, extraction, separator);
  const humanFlat = flattenCatalog(human, separator);
  const flat = new Map<string, string>();
  for (const [path, value] of flattenCatalog(built, separator)) {
    const group = groupOf(path, extraction);
    const groupCovered = group !== undefined && [...covered].some((c) => groupOf(c, extraction) === group);
    if (!humanFlat.has(path) && !covered.has(path) && !groupCovered) flat.set(path, value);
  }
  return unflattenCatalog(flat, separator);
}

export interface MergeResult {
  /** The human catalog with the reviewed keys added. */
  readonly catalog: Catalog;
  /** Keys added as a person left them (`edited`: changed from the machine output). */
  readonly added: readonly { readonly key: string; readonly edited: boolean }[];
  /** Keys not taken: the human catalog already has another value (the human-edit guard). */
  readonly kept: readonly string[];
}

/**
 * Merges a reviewed file into the app's catalog for its locale. A key the catalog already has keeps the
 * catalog's value (a human edit is never overwritten); `machine` (the review file as written) tells which
 * reviewed values a person changed.
 */
export function mergeReviewed(
  human: Catalog,
  reviewed: Catalog,
  machine: Catalog = {},
  separator = '.',
): MergeResult {
  const flat = flattenCatalog(human, separator);
  const written = flattenCatalog(machine, separator);
  const added: { key: string; edited: boolean }[] = [];
  const kept: string[] = [];
  for (const [path, value] of flattenCatalog(reviewed, separator)) {
    const existing = flat.get(path);
    if (existing !== undefined) {
      if (existing !== value) kept.push(path);
      continue;
    }
    flat.set(path, value);
    added.push({ key: path, edited: written.has(path) && written.get(path) !== value });
  }
  return { catalog: unflattenCatalog(flat, separator), added, kept };
}
