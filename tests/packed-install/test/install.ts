/**
 * Packing the workspace's packages as `pnpm pack` publishes them, and installing the tarballs with npm into
 * fresh projects outside the workspace, as a user would.
 */
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '../../..');

/** Runs a command; throws with the end of its output when it fails. */
export function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${output.slice(-4000)}`);
  }
  return output;
}

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
}

/** Builds every publishable package (turbo) and packs each into `destination`; returns name → tarball path. */
export function buildAndPack(destination: string): Map<string, string> {
  run('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*', '--filter=./plugins/*'], { cwd: ROOT });
  mkdirSync(destination, { recursive: true });
  const tarballs = new Map<string, string>();
  for (const group of ['packages', 'plugins']) {
    for (const name of readdirSync(join(ROOT, group))) {
      const dir = join(ROOT, group, name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      if (manifest.private) continue;
      run('pnpm', ['pack', '--pack-destination', destination], { cwd: dir });
      const file = `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;
      tarballs.set(manifest.name, join(destination, file));
    }
  }
  return tarballs;
}

export interface Installed {
  readonly dir: string;
  /** Bytes of node_modules on disk (file sizes). */
  readonly bytes: number;
  /** Installed packages (npm's tree, deduplicated). */
  readonly packages: number;
  /** Packages holding a `binding.gyp`: compiled from source at install (a native build). */
  readonly nativeBuilds: readonly string[];
}

/** Apparent size of a folder, a hard-linked file counted once (esbuild links its binary), as `du -sb` says. */
function bytesUnder(dir: string): number {
  const [bytes] = run('du', ['-sb', dir]).split('\t');
  return Number(bytes);
}

function findBindings(dir: string, root: string, found: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findBindings(path, root, found);
    else if (entry.name === 'binding.gyp') found.push(relative(root, dir));
  }
  return found;
}

/** The named Glossa packages and the Glossa packages they depend on (read from their tarballs). */
export function glossaClosure(tarballs: ReadonlyMap<string, string>, names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string) => {
    const file = tarballs.get(name);
    if (found.has(name) || !file) return;
    found.add(name);
    const manifest = JSON.parse(run('tar', ['-xOzf', file, 'package/package.json'])) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
  };
  for (const name of names) visit(name);
  return [...found].sort();
}

export type PackageManager = 'npm' | 'pnpm' | 'yarn';

/**
 * The command of a package manager: npm and pnpm as installed; yarn from PATH, else yarn 1 installed with
 * npm into `dir` (Corepack's signature check fails on machines without its keys; the npm package works).
 */
export function packageManager(manager: PackageManager, dir: string): string {
  if (manager !== 'yarn') return manager;
  if (spawnSync('yarn', ['--version'], { encoding: 'utf8' }).status === 0) return 'yarn';
  run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', 'yarn@^1.22.22']);
  return join(dir, 'node_modules', '.bin', 'yarn');
}

/**
 * A fresh project in `dir` with `dependencies` from the registry and the named Glossa packages from
 * their tarballs, installed with npm (default), pnpm or yarn. Every Glossa package resolves to its tarball,
 * never to the registry: a dependency of a dependency (`@glossa/vite` → `@glossa/i18next`) too, through
 * the manager's overrides (npm `overrides`, pnpm `pnpm.overrides`, yarn `resolutions`): unpublished
 * packages are not on the registry, and pnpm fails with `ERR_PNPM_FETCH_404` without them.
 */
export function installProject(
  dir: string,
  tarballs: ReadonlyMap<string, string>,
  glossa: readonly string[],
  dependencies: Record<string, string> = {},
  manager: { name: PackageManager; command: string } = { name: 'npm', command: 'npm' },
): Installed {
  mkdirSync(dir, { recursive: true });
  const local = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  const manifest = {
    name: 'fresh-project',
    private: true,
    type: 'module',
    dependencies: { ...dependencies, ...Object.fromEntries(glossa.map((name) => [name, local[name]])) },
    ...(manager.name === 'npm' && { overrides: local }),
    ...(manager.name === 'pnpm' && { pnpm: { overrides: local } }),
    // Yarn 1 installs every `file:` resolution as if it were a dependency: only the ones needed.
    ...(manager.name === 'yarn' && {
      resolutions: Object.fromEntries(glossaClosure(tarballs, glossa).map((name) => [name, local[name]])),
    }),
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const args = {
    npm: ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    pnpm: ['install', '--ignore-workspace', '--prefer-offline', '--reporter=silent'],
    yarn: ['install', '--non-interactive', '--prefer-offline', '--silent'],
  }[manager.name];
  run(manager.command, args, { cwd: dir });
  const modules = join(dir, 'node_modules');
  if (manager.name !== 'npm') {
    return { dir, bytes: bytesUnder(modules), packages: 0, nativeBuilds: findBindings(modules, modules, []) };
  }
  // `npm ls` exits non-zero on any peer warning; only its list of installed paths is wanted here.
  const listed = spawnSync('npm', ['ls', '--all', '--parseable'], { cwd: dir, encoding: 'utf8' });
  const tree = listed.stdout.trim().split('\n');
  return {
    dir,
    bytes: bytesUnder(modules),
    packages: new Set(tree.slice(1)).size,
    nativeBuilds: findBindings(modules, modules, []),
  };
}

export const megabytes = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;
