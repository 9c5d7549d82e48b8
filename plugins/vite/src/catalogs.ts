/**
 * i18next JSON catalogs: the source language's files (one per namespace) are translated in one run and
 * emitted content-hashed, `<outDir>/<locale>/<ns>.<hash>.json`, with `<outDir>/manifest.json` mapping
 * locale → namespace → file (relative to the manifest), which the app and `GlossaBackend` read.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTranslationRun } from '@glossa/core';
import { buildCatalog, type Catalog, extractCatalog } from '@glossa/i18next';
import { MissingTranslationsError } from './errors.js';
import type { LocalizeOptions } from './localize.js';

export interface CatalogOptions {
  /** Folder of the source language's catalogs, relative to Vite's root, e.g. `locales/en`. */
  readonly source: string;
  /** Folder in the build output. Default `locales`. */
  readonly outDir?: string;
}

export interface CatalogManifest {
  readonly sourceLang: string;
  readonly locales: Record<string, Record<string, string>>;
}

export interface EmitContext {
  readonly root: string;
  readonly localize: LocalizeOptions;
  readonly emit: (fileName: string, source: string) => void;
  readonly log: (message: string) => void;
}

export async function emitCatalogs(options: CatalogOptions, ctx: EmitContext): Promise<CatalogManifest> {
  const dir = resolve(ctx.root, options.source);
  const outDir = (options.outDir ?? 'locales').replace(/^\/+|\/+$/g, '');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const catalogs = await Promise.all(
    files.map(async (file) => extractCatalog(await readFile(join(dir, file), 'utf8'), { file })),
  );
  const { session, sourceLang, locales, cacheOnly } = ctx.localize;
  const run = createTranslationRun({
    translator: session.translator,
    cache: session.cache,
    sourceLang,
    targetLangs: locales,
    ...(ctx.localize.requestOptions && { requestOptions: ctx.localize.requestOptions }),
    ...(ctx.localize.onEvent && { onEvent: ctx.localize.onEvent }),
  });
  const { targets, report } = await run.translate({ segments: catalogs.flatMap((c) => c.segments) });
  if (cacheOnly && report.failures.length > 0) throw new MissingTranslationsError(report.failures);

  const manifest: CatalogManifest = { sourceLang, locales: {} };
  const write = (locale: string, file: string, catalog: Catalog) => {
    const text = `${JSON.stringify(catalog, null, 2)}\n`;
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 10);
    const name = `${locale}/${file.replace(/\.json$/, '')}.${hash}.json`;
    ctx.emit(`${outDir}/${name}`, text);
    manifest.locales[locale] ??= {};
    manifest.locales[locale][file.replace(/\.json$/, '')] = name;
  };
  for (const c of catalogs) write(sourceLang, c.file, c.catalog);
  for (const locale of locales) {
    for (const c of catalogs) {
      write(locale, c.file, buildCatalog(c, targets.get(locale)!, { locale }));
    }
  }
  ctx.emit(`${outDir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  ctx.log(
    `glossa: ${files.length} catalog(s) × ${locales.join(', ')}: ${report.cacheHits} from cache, ` +
      `${report.translated} translated, ${report.failures.length} failure(s)`,
  );
  return manifest;
}
