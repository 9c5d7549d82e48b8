/**
 * The plugin's options, and the Glossa config they resolve to: the project's `glossa.config.*` (looked
 * up from Vite's root) with the options over it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  type CacheConfig,
  CONFIG_FILE_NAMES,
  type GlossaConfig,
  loadConfig,
  parseGlossary,
  type ResolvedConfig,
  resolveConfig,
} from '@glossa/core';
import type { CatalogOptions } from './catalogs.js';
import type { ComponentOptions } from './components/extract.js';

export interface GlossaViteOptions {
  /** Locales to produce. Default: the config's `targetLocales`. */
  readonly locales?: readonly string[];
  /** Language of the pages. Default: the config's `sourceLang` (`en`). */
  readonly sourceLang?: string;
  /** Where a localized page goes in the output, with `{locale}` and `{path}`. Default `{locale}/{path}`. */
  readonly output?: string;
  /**
   * CI mode: translate from the cache only; a missing translation fails the build with the list of them,
   * and no request is made. Default: `GLOSSA_CACHE_ONLY=1` in the environment.
   */
  readonly cacheOnly?: boolean;
  /** Origin for absolute `hreflang` URLs, e.g. `https://example.com`. Default: root-relative URLs. */
  readonly siteUrl?: string;
  /** i18next JSON catalogs to translate and emit content-hashed with a manifest. */
  readonly catalogs?: CatalogOptions;
  /**
   * Localize the text in components (JSX/TSX, Vue, Svelte, tagged templates): `true` or options. The
   * build then makes one bundle per locale (`dist/<locale>/…` pages, locale chunks under `assets/`).
   */
  readonly components?: boolean | ComponentOptions;
  /** Dev server with `components`: the locale the app is served in. Default `GLOSSA_DEV_LOCALE`, else the source. */
  readonly devLocale?: string;
  /**
   * With `components`: the app's dependencies (`node_modules`) in a chunk of their own, the same file in
   * every locale, when the app sets no chunking itself. Default `true`; `false` leaves the chunks as Vite
   * makes them.
   */
  readonly vendorChunk?: boolean;
  /**
   * With `components`: the app's chunks are shared by every locale, each locale's strings read from a
   * small dictionary its pages load (`assets/glossa-text.<locale>-<hash>.js`), so a locale adds its text
   * and pages, not a copy of the app. A chunk that differs in more than strings stays a copy per locale.
   * Default `true`; `false`: every chunk with text is a copy per locale.
   */
  readonly shareChunks?: boolean;
  /** A `glossa.config.*` file; default: looked up from Vite's root; `false`: none. */
  readonly configFile?: string | false;
  readonly cache?: CacheConfig;
  /** The lock (`components`: tells a person's edit from machine output). Default `glossa.lock`; `false`: none. */
  readonly lock?: string | false;
  readonly service?: GlossaConfig['service'];
  readonly translation?: GlossaConfig['translation'];
  /**
   * Terms never translated, in every locale (pseudo-locales included): brand and product names, keyboard
   * shortcuts. Whole words, case-sensitive. Default: the config's `doNotTranslate`. Either way the
   * glossaries' entries whose target equals their source (`Vue<TAB>Vue`) are added.
   */
  readonly doNotTranslate?: readonly string[];
}

export async function resolveGlossaConfig(options: GlossaViteOptions, root: string): Promise<ResolvedConfig> {
  const overrides: GlossaConfig = {
    ...(options.sourceLang !== undefined && { sourceLang: options.sourceLang }),
    ...(options.locales !== undefined && { targetLocales: options.locales }),
    ...(options.cache !== undefined && { cache: options.cache }),
    ...(options.lock !== undefined && { lock: options.lock }),
    ...(options.service !== undefined && { service: options.service }),
    ...(options.translation !== undefined && { translation: options.translation }),
    ...(options.doNotTranslate !== undefined && { doNotTranslate: options.doNotTranslate }),
  };
  const configFile = options.configFile ?? findConfigFile(root);
  const config =
    configFile === undefined || configFile === false
      ? resolveConfig(overrides, { root })
      : await loadConfig({ cwd: root, overrides, configFile });
  return withGlossaryKeeps(config);
}

/**
 * The config with `doNotTranslate` grown by the glossaries' entries whose target is their source
 * (`Vue<TAB>Vue`: a name the project keeps), so those terms stay as written in every locale, the
 * pseudo-locales included. A glossary that cannot be read adds nothing here (the run reports it).
 */
export async function withGlossaryKeeps(config: ResolvedConfig): Promise<ResolvedConfig> {
  if (config.glossaries.length === 0) return config;
  const keep = new Set(config.doNotTranslate);
  for (const { file } of config.glossaries) {
    const terms = await readFile(file, 'utf8')
      .then((text) => parseGlossary(text, file))
      .catch(() => []);
    for (const t of terms) if (t.target === t.source) keep.add(t.source);
  }
  return keep.size === config.doNotTranslate.length ? config : { ...config, doNotTranslate: [...keep] };
}

/**
 * The nearest `glossa.config.*` from `dir` up, looked up synchronously: a few `stat` calls, not one
 * trip through libuv's thread pool per name and folder (0.04 ms instead of 0.6 ms per build).
 */
function findConfigFile(dir: string): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    for (const name of CONFIG_FILE_NAMES) {
      if (existsSync(join(current, name))) return join(current, name);
    }
    if (dirname(current) === current) return undefined;
  }
}

/** The request options of a run, from the config's `translation`. */
export function requestOptionsOf(config: ResolvedConfig) {
  const t = config.translation;
  return {
    ...(t.formality !== undefined && { formality: t.formality }),
    ...(t.modelType !== undefined && { modelType: t.modelType }),
    ...(t.customInstructions !== undefined && { customInstructions: [...t.customInstructions] }),
  };
}
