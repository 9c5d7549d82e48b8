/**
 * i18next JSON catalogs: the source language's files (one per namespace) are translated in one run and
 * emitted content-hashed, `<outDir>/<locale>/<ns>.<hash>.json`, with `<outDir>/manifest.json` mapping
 * locale → namespace → file (relative to the manifest), which the app and `GlossaBackend` read.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTranslationRun, recordingCache } from '@glossa/core';
import { buildCatalog, type Catalog, extractCatalog, type MessageSyntax } from '@glossa/i18next';
import { MissingTranslationsError } from './errors.js';
import type { LocalizeOptions } from './localize.js';

export interface CatalogOptions {
  /** Folder of the source language's catalogs, relative to Vite's root, e.g. `locales/en`. */
  readonly source: string;
  /** Folder in the build output. Default `locales`. */
  readonly outDir?: string;
  /**
   * The values' message syntax: `i18next`, `icu` (i18next-icu, FormatJS, next-intl) or `vue` (vue-i18n).
   * Default `'auto'`: detected per file from its values.
   */
  readonly syntax?: MessageSyntax | 'auto';
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
  // Small files, read synchronously: no trips through libuv's thread pool.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const sources = files.map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
  const { session, sourceLang, locales, cacheOnly } = ctx.localize;
  const materialOf = (s: { file: string; text: string }) => [
    'catalog',
    s.file,
    s.text,
    sourceLang,
    locales,
    ctx.localize.requestOptions ?? {},
    ctx.localize.doNotTranslate ?? [],
    options.syntax ?? 'auto',
  ];
  // Per file, per locale (source language included): the emitted text; from the result cache if unchanged.
  const texts = await Promise.all(sources.map((s) => session.results?.get(materialOf(s))));
  const todo = sources.filter((_, i) => texts[i] === undefined);
  let summary = `${todo.length === 0 ? 'all' : sources.length - todo.length} unchanged (result cache)`;
  if (todo.length > 0) {
    const catalogs = todo.map((s) =>
      extractCatalog(s.text, {
        file: s.file,
        ...(options.syntax !== undefined && { syntax: options.syntax }),
      }),
    );
    const recording = recordingCache(session.cache);
    const run = createTranslationRun({
      translator: session.translator,
      cache: recording.cache,
      sourceLang,
      targetLangs: locales,
      ...(ctx.localize.requestOptions && { requestOptions: ctx.localize.requestOptions }),
      ...(ctx.localize.doNotTranslate && { doNotTranslate: ctx.localize.doNotTranslate }),
      ...(ctx.localize.onEvent && { onEvent: ctx.localize.onEvent }),
    });
    const { targets, report } = await run.translate({ segments: catalogs.flatMap((c) => c.segments) });
    if (cacheOnly && report.failures.length > 0) throw new MissingTranslationsError(report.failures);
    for (const [i, c] of catalogs.entries()) {
      const outputs: Record<string, string> = { [sourceLang]: serialize(c.catalog) };
      for (const locale of locales) {
        outputs[locale] = serialize(buildCatalog(c, targets.get(locale)!, { locale }));
      }
      texts[sources.indexOf(todo[i]!)] = outputs;
      if (session.results && !report.failures.some((f) => f.file === c.file)) {
        await session.results.set(materialOf(todo[i]!), outputs, recording.used);
      }
    }
    summary += `, ${report.cacheHits} from cache, ${report.translated} translated, ${report.failures.length} failure(s)`;
  }

  const manifest: CatalogManifest = { sourceLang, locales: {} };
  for (const locale of [sourceLang, ...locales]) {
    for (const [i, { file }] of sources.entries()) {
      const text = texts[i]![locale]!;
      const hash = createHash('sha256').update(text).digest('hex').slice(0, 10);
      const name = `${locale}/${file.replace(/\.json$/, '')}.${hash}.json`;
      ctx.emit(`${outDir}/${name}`, text);
      manifest.locales[locale] ??= {};
      manifest.locales[locale][file.replace(/\.json$/, '')] = name;
    }
  }
  ctx.emit(`${outDir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  ctx.log(`glossa: ${files.length} catalog(s) × ${locales.join(', ')}: ${summary}`);
  return manifest;
}

const serialize = (catalog: Catalog) => `${JSON.stringify(catalog, null, 2)}\n`;
