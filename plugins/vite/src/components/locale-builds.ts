/**
 * Per-locale builds. The source-language build extracts every component's units and translates them in
 * one run; then each locale is built again, in memory, with its translations written into the
 * components before the framework compiles them, and its files are added to the source build's output:
 * pages under `<locale>/`, and chunks under `assets/` with content hashes, so a chunk without text
 * (the framework, libraries) is the same file in every locale and only the chunks with text differ.
 *
 * A locale build's files are kept in the result cache under the fingerprint of everything that made
 * them: every module's source, the build options, the locales and the translations. A warm build whose
 * fingerprint is unchanged emits them from there and builds nothing more.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InlineConfig, PluginOption, ResolvedConfig, Rollup, UserConfig } from 'vite';
import type { BuiltChunk, BuiltFiles } from './shared-chunks.js';

export interface LocaleBuild {
  readonly locale: string;
  /** Per key: this locale's target. */
  readonly targets: ReadonlyMap<string, string>;
}

/** Set while a locale build runs; its glossa plugin instance reads it in its `config` hook. */
export const localeBuilds = new AsyncLocalStorage<LocaleBuild>();

/** Builds `locale` in memory with the same config, and returns its files and its chunks. */
export async function buildLocale(
  vite: ResolvedConfig,
  build: LocaleBuild,
  replacePlugin: (plugin: Rollup.Plugin) => Rollup.Plugin | undefined,
): Promise<{ files: BuiltFiles; chunks: BuiltChunk[] }> {
  const { build: viteBuild } = await viteOf(vite.root);
  const inline = vite.inlineConfig;
  const config: InlineConfig = {
    ...inline,
    configFile: vite.configFile ?? false,
    root: vite.root,
    mode: vite.mode,
    logLevel: 'warn',
    ...(inline.plugins && { plugins: replacePlugins(inline.plugins, replacePlugin) }),
    build: {
      ...inline.build,
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      reportCompressedSize: false,
    },
  };
  const result = await localeBuilds.run(build, () => viteBuild(config));
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const files: BuiltFiles = new Map();
  const chunks: BuiltChunk[] = [];
  for (const output of outputs) {
    if (!output || !('output' in output)) continue;
    for (const item of output.output) {
      files.set(item.fileName, item.type === 'chunk' ? item.code : item.source);
      if (item.type === 'chunk') chunks.push(chunkOf(item));
    }
  }
  return { files, chunks };
}

/** A chunk, named by the modules it is made of (the same in every locale's build). */
export function chunkOf(chunk: Rollup.OutputChunk): BuiltChunk {
  const ids = (chunk as { moduleIds?: readonly string[] }).moduleIds ?? Object.keys(chunk.modules);
  return { fileName: chunk.fileName, code: chunk.code, modules: [...ids].sort().join('\0') };
}

/**
 * The Vite the app builds with: resolved from its root (the plugin's own `vite` may be another copy,
 * e.g. in a workspace), else the one the plugin resolves.
 */
export async function viteOf(root: string): Promise<typeof import('vite')> {
  try {
    const manifest = createRequire(join(root, 'package.json')).resolve('vite/package.json');
    const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> };
    const entry = exports?.['.'];
    const path =
      typeof entry === 'string'
        ? entry
        : ((entry as { import?: string | { default?: string } } | undefined)?.import ??
          './dist/node/index.js');
    const file = typeof path === 'string' ? path : (path.default ?? './dist/node/index.js');
    return (await import(pathToFileURL(join(dirname(manifest), file)).href)) as typeof import('vite');
  } catch {
    return import('vite');
  }
}

/**
 * With `components`, and when the app chooses no chunking of its own: the dependencies (`node_modules`)
 * in a chunk of their own, in the source build and every locale build. That chunk holds no text, so it
 * is the same file in every locale and is emitted once; a locale adds only its app chunk.
 */
export async function vendorChunkConfig(user: UserConfig): Promise<UserConfig | undefined> {
  const build = user.build ?? {};
  if (build.lib || build.ssr) return undefined;
  const key = (build as { rolldownOptions?: unknown }).rolldownOptions ? 'rolldownOptions' : 'rollupOptions';
  const options = ((build as Record<string, unknown>)[key] ?? {}) as { output?: unknown };
  const output = options.output;
  if (Array.isArray(output)) return undefined;
  const chosen = ['manualChunks', 'advancedChunks', 'codeSplitting', 'inlineDynamicImports'];
  if (output && chosen.some((k) => (output as Record<string, unknown>)[k] !== undefined)) return undefined;
  const vite = await viteOf(user.root ? resolve(user.root) : process.cwd());
  const test = /[\\/]node_modules[\\/]/;
  const split =
    'rolldownVersion' in vite
      ? { codeSplitting: { groups: [{ name: 'vendor', test }] } }
      : { manualChunks: (id: string) => (test.test(id) ? 'vendor' : undefined) };
  return { build: { [key]: { output: split } } };
}

function replacePlugins(
  plugins: readonly PluginOption[],
  replace: (plugin: Rollup.Plugin) => Rollup.Plugin | undefined,
): PluginOption[] {
  return plugins.map((p) => {
    if (Array.isArray(p)) return replacePlugins(p, replace);
    if (p && typeof p === 'object' && 'name' in p) return replace(p as Rollup.Plugin) ?? p;
    return p;
  });
}

/**
 * The fingerprint of what a locale build is made from: the source-language build's output (every chunk
 * and asset: it changes with any module, dependency, define or option that reaches the output), the
 * units with the original bytes of their codes, and the options given. With the same translations, the
 * same fingerprint makes the same locale builds.
 */
export function buildFingerprint(
  bundle: Rollup.OutputBundle,
  units: readonly { key: string; codes: unknown }[],
  vite: ResolvedConfig,
): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(bundle).sort()) {
    const item = bundle[name]!;
    hash.update(`${name}\0`);
    hash.update(item.type === 'chunk' ? item.code : item.source);
    hash.update('\0');
  }
  for (const u of units) hash.update(`${u.key}\0${JSON.stringify(u.codes)}\0`);
  hash.update(
    JSON.stringify(
      // Where the output goes is not part of what it is.
      {
        base: vite.base,
        mode: vite.mode,
        build: { ...vite.build, outDir: '', emptyOutDir: null },
        define: vite.define ?? null,
      },
      (_key, value) => (typeof value === 'function' ? String(value) : value),
    ),
  );
  return hash.digest('hex');
}

/** Files → one string for the result cache (text as is, bytes as base64). */
export function packFiles(files: BuiltFiles): string {
  const entries = [...files].map(([name, source]) =>
    typeof source === 'string' ? [name, 't', source] : [name, 'b', Buffer.from(source).toString('base64')],
  );
  return JSON.stringify(entries);
}

export function unpackFiles(packed: string): BuiltFiles {
  const files: BuiltFiles = new Map();
  for (const [name, kind, data] of JSON.parse(packed) as [string, string, string][]) {
    files.set(name, kind === 't' ? data : new Uint8Array(Buffer.from(data, 'base64')));
  }
  return files;
}

/** A hash of every locale's targets, sorted: part of the result cache's key. */
export function targetsFingerprint(targets: ReadonlyMap<string, ReadonlyMap<string, string>>): string {
  const hash = createHash('sha256');
  for (const locale of [...targets.keys()].sort()) {
    const byKey = targets.get(locale)!;
    hash.update(`${locale}\0`);
    for (const key of [...byKey.keys()].sort()) hash.update(`${key}\0${byKey.get(key)}\0`);
  }
  return hash.digest('hex');
}
