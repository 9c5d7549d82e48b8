/**
 * Which files a command works on, and where each one's output goes: the paths or globs given on the
 * command line (outputs in `<out>/<locale>/<path relative to the argument>`), else the config's `files`.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { AdapterName, ResolvedConfig, ResolvedFiles } from '@glossa/core';
import { glob, isDynamicPattern } from 'tinyglobby';
import { UsageError } from './errors.js';

export const ADAPTER_BY_EXTENSION: Readonly<Record<string, AdapterName>> = {
  '.md': 'markdown',
  '.mdx': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.xlf': 'xliff',
  '.xliff': 'xliff',
  '.json': 'i18next',
};

const SUPPORTED = Object.keys(ADAPTER_BY_EXTENSION).map((e) => e.slice(1));
/** What a folder argument takes: not `.json` (a folder holds config files too); name catalogs by glob or file. */
const IN_FOLDERS = SUPPORTED.filter((e) => e !== 'json');

export interface InputFile {
  readonly path: string;
  /** Path relative to the project root, `/`-separated: the prefix of its segment keys. */
  readonly id: string;
  readonly adapter: AdapterName;
  /** JSON catalogs: the message syntax the config gives their files (unset: detected). */
  readonly syntax?: ResolvedFiles['syntax'];
  /** Absolute path of the output for `locale`. */
  outputFor(locale: string): string;
}

const posix = (path: string) => path.split(sep).join('/');

function adapterOf(path: string, fixed: AdapterName | undefined): AdapterName {
  if (fixed) return fixed;
  const adapter = ADAPTER_BY_EXTENSION[extname(path).toLowerCase()];
  if (!adapter) {
    throw new UsageError(
      `no adapter for ${path}: supported extensions are ${SUPPORTED.map((e) => `.${e}`).join(', ')}`,
    );
  }
  return adapter;
}

/** The folder a glob's matches are relative to: its segments before the first one with a pattern. */
function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  for (const part of parts) {
    if (isDynamicPattern(part)) break;
    fixed.push(part);
  }
  return fixed.join('/') || '.';
}

function fillPattern(pattern: string, locale: string, rel: string): string {
  const ext = extname(rel);
  const dir = dirname(rel);
  return pattern
    .replaceAll('{locale}', locale)
    .replaceAll('{path}', rel)
    .replaceAll('{dir}', dir === '.' ? '' : dir)
    .replaceAll('{name}', basename(rel, ext))
    .replaceAll('{ext}', ext);
}

interface Source {
  readonly base: string;
  readonly patterns: readonly string[];
  readonly ignore: readonly string[];
  readonly output: string;
  readonly adapter: AdapterName | undefined;
  readonly syntax?: ResolvedFiles['syntax'];
}

/** One path, folder or glob (relative to `cwd`), with the output pattern and adapter its outputs use. */
async function sourceOf(
  arg: string,
  cwd: string,
  output: string,
  adapter: AdapterName | undefined,
  ignore: readonly string[] = [],
): Promise<Source> {
  const path = resolve(cwd, arg);
  if (!isDynamicPattern(posix(arg))) {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UsageError(`no such file or folder: ${arg}`);
    if (info.isDirectory()) {
      return { base: path, patterns: [`**/*.{${IN_FOLDERS.join(',')}}`], ignore, output, adapter };
    }
    return { base: dirname(path), patterns: [basename(path)], ignore, output, adapter };
  }
  const pattern = posix(isAbsolute(arg) ? arg : relative(cwd, path));
  const base = resolve(cwd, globBase(pattern));
  return { base, patterns: [posix(relative(base, resolve(cwd, pattern)))], ignore, output, adapter };
}

function sourcesOfConfig(config: ResolvedConfig): Promise<Source[]> {
  return Promise.all(
    config.files.flatMap((entry) =>
      entry.include.map((include) => {
        const base = resolve(config.root, isDynamicPattern(include) ? globBase(include) : include);
        const ignore = entry.exclude.map((e) => posix(relative(base, resolve(config.root, e))));
        return sourceOf(include, config.root, entry.output, entry.adapter, ignore).then((source) =>
          entry.syntax === undefined ? source : { ...source, syntax: entry.syntax },
        );
      }),
    ),
  );
}

/**
 * Symbolic links under `source.base` that lead nowhere, whose extension the source's patterns name
 * (`**\/*.{md,mdx}` names `.md`). Absolute paths.
 */
async function danglingLinks(source: Source): Promise<string[]> {
  const entries = await readdir(source.base, { recursive: true, withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    if (path.split(sep).includes('node_modules')) continue;
    const ext = extname(entry.name).toLowerCase().slice(1);
    if (ext === '' || !source.patterns.some((p) => p.includes(ext))) continue;
    if (source.patterns.every((p) => !isDynamicPattern(p)) && !source.patterns.includes(entry.name)) continue;
    if ((await stat(path).catch(() => undefined)) === undefined) found.push(path);
  }
  return found;
}

/**
 * The input files of a command. `args`: paths or globs (relative to `cwd`); none: the config's `files`.
 * Outputs are never inputs: files under the output root and `node_modules` are skipped.
 */
export async function collectInputs(
  config: ResolvedConfig,
  args: readonly string[],
  cwd: string,
  locales: readonly string[],
): Promise<InputFile[]> {
  const output = join(config.out, '{locale}', '{path}');
  const sources =
    args.length > 0
      ? await Promise.all(args.map((a) => sourceOf(a, cwd, output, undefined)))
      : await sourcesOfConfig(config);
  if (sources.length === 0) {
    throw new UsageError('no input files: pass files, folders or globs, or set `files` in glossa.config');
  }
  const seen = new Map<string, InputFile>();
  for (const source of sources) {
    // The folders outputs go to (`out/es`, `locales/fr`): what is in them is never an input.
    const outputRoots = locales.map((locale) => {
      const filled = source.output.replaceAll('{locale}', locale);
      const brace = filled.indexOf('{');
      return (brace === -1 ? filled : filled.slice(0, brace)).replace(/[/\\]$/, '');
    });
    const matches = await glob([...source.patterns], {
      cwd: source.base,
      ignore: ['**/node_modules/**', ...source.ignore],
      absolute: true,
      onlyFiles: true,
    });
    // The glob skips links that lead nowhere without a word: they become inputs, so reading them fails
    // and is reported like any other unreadable file.
    matches.push(...(await danglingLinks(source)));
    for (const match of matches.sort()) {
      const path = resolve(match);
      if (outputRoots.some((root) => root !== '' && (path === root || path.startsWith(`${root}${sep}`))))
        continue;
      if (seen.has(path)) continue;
      const rel = posix(relative(source.base, path));
      seen.set(path, {
        path,
        id: posix(relative(config.root, path)),
        adapter: adapterOf(path, source.adapter),
        ...(source.syntax !== undefined && { syntax: source.syntax }),
        outputFor: (locale) => resolve(fillPattern(source.output, locale, rel)),
      });
    }
  }
  if (seen.size === 0) {
    throw new UsageError(
      `no input files matched ${args.length > 0 ? args.join(', ') : "the config's `files`"}`,
    );
  }
  return [...seen.values()];
}
