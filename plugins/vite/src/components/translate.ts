/**
 * One translation run over every component unit of a build, with the project's lock and the per-locale
 * catalogs of component translations (`locales/components/<locale>.json`): a translation a person edited
 * there is kept (the lock tells it from the last machine output), a new or changed text is translated
 * (cache first), and the catalogs are written back. A target whose codes do not match its source (a
 * machine output that failed verification, or a bad edit) stays in the source language and is reported.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  createTranslationRun,
  type RunEvent,
  type RunFailure,
  type RunReport,
  type RunSegment,
  TranslationLock,
  type TranslationRunOptions,
  verifyCodes,
} from '@glossa/core';
import { MissingTranslationsError } from '../errors.js';
import type { Session } from '../service.js';
import type { KeyedUnit } from './extract.js';

export interface ComponentRunOptions {
  readonly session: Session;
  readonly sourceLang: string;
  readonly locales: readonly string[];
  readonly cacheOnly: boolean;
  /** Absolute folder of the catalogs. */
  readonly catalogDir: string;
  /** Absolute path of the lock; none: human edits cannot be told from machine output (all are kept). */
  readonly lockPath: string | undefined;
  readonly requestOptions?: TranslationRunOptions['requestOptions'];
  /** Terms never translated, in any locale (the config's `doNotTranslate`). */
  readonly doNotTranslate?: readonly string[];
  readonly onEvent?: (event: RunEvent) => void;
  /** Write the catalogs and the lock (builds); the dev server reads only. Default true. */
  readonly write?: boolean;
}

export interface ComponentRun {
  /** Per locale, per key: the target to write in (missing: the source stays). */
  readonly targets: Map<string, Map<string, string>>;
  readonly report: RunReport;
  /** Targets kept in the source language because their codes do not match. */
  readonly problems: readonly RunFailure[];
}

/** A catalog file: per key, the source it was made for and its translation (a person may edit it). */
type CatalogFile = Record<string, { source: string; target: string }>;

export async function translateComponents(
  units: readonly (KeyedUnit & { file: string })[],
  options: ComponentRunOptions,
): Promise<ComponentRun> {
  const segments: RunSegment[] = [];
  const seen = new Set<string>();
  for (const u of units) {
    if (seen.has(u.key)) continue;
    seen.add(u.key);
    segments.push({ key: u.key, source: u.source, file: u.file, position: u.position });
  }
  const catalogs = new Map(options.locales.map((l) => [l, readCatalog(catalogPath(options.catalogDir, l))]));
  const existingTargets = new Map(
    options.locales.map((locale) => {
      const catalog = catalogs.get(locale)!;
      const byKey = new Map<string, string>();
      for (const s of segments) {
        const entry = catalog[s.key];
        if (entry && typeof entry.target === 'string') byKey.set(s.key, entry.target);
      }
      return [locale, byKey] as const;
    }),
  );
  const lock = options.lockPath ? await TranslationLock.open(options.lockPath) : undefined;
  const run = createTranslationRun({
    translator: options.session.translator,
    cache: options.session.cache,
    sourceLang: options.sourceLang,
    targetLangs: options.locales,
    ...(lock && options.write !== false && { lock }),
    ...(options.requestOptions && { requestOptions: options.requestOptions }),
    ...(options.doNotTranslate && { doNotTranslate: options.doNotTranslate }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
  const { targets, report } = await run.translate({ segments, existingTargets });
  if (options.cacheOnly && report.failures.length > 0) throw new MissingTranslationsError(report.failures);

  const failed = new Set(report.failures.map((f) => `${f.locale}\n${f.key}`));
  const problems: RunFailure[] = [];
  const bySource = new Map(segments.map((s) => [s.key, s]));
  for (const [locale, byKey] of targets) {
    for (const [key, target] of byKey) {
      const segment = bySource.get(key)!;
      const bad = target === segment.source ? undefined : verifyCodes(segment.source, target);
      if (failed.has(`${locale}\n${key}`)) {
        byKey.delete(key);
        continue;
      }
      if (bad) {
        byKey.delete(key);
        problems.push({
          locale,
          key,
          reason: bad,
          ...(segment.file !== undefined && { file: segment.file }),
          ...(segment.position && { position: segment.position }),
        });
      }
    }
  }

  if (options.write !== false) {
    for (const locale of options.locales) {
      const byKey = targets.get(locale)!;
      // The catalog: this build's targets (a bad edit is kept as written, for its author to fix).
      const next: CatalogFile = {};
      for (const s of [...segments].sort((a, b) => (a.key < b.key ? -1 : 1))) {
        const target = byKey.get(s.key) ?? existingTargets.get(locale)!.get(s.key);
        if (target !== undefined) next[s.key] = { source: s.source, target };
      }
      await writeCatalog(catalogPath(options.catalogDir, locale), catalogs.get(locale)!, next);
      lock?.prune(
        locale,
        segments.map((s) => s.key),
      );
    }
    await lock?.save();
  }
  return { targets, report, problems };
}

export const catalogPath = (dir: string, locale: string) => join(dir, `${locale}.json`);

function readCatalog(path: string): CatalogFile {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  try {
    const data = JSON.parse(text) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not an object');
    return data as CatalogFile;
  } catch (error) {
    throw new TypeError(
      `glossaVite: ${path} is not a catalog of component translations ({"key": {"source", "target"}}): ${(error as Error).message}`,
    );
  }
}

async function writeCatalog(path: string, before: CatalogFile, next: CatalogFile) {
  const text = `${JSON.stringify(next, null, 2)}\n`;
  if (`${JSON.stringify(before, null, 2)}\n` === text) return;
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}
