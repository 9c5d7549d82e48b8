/**
 * Issue 29's bench: VitePress's docs (the 12-page fixture of vuejs/vitepress v1.6.4), a cold
 * `glossa translate` to es (Apertium) and en-XA (pseudo) on the embedded server, timed against the baseline
 * of the same run: `vitepress build` of the English site alone (what the site costs without Glossa). Then a
 * warm rerun, which must send 0 requests and write 0 files. `ROUNDS` (default 3) fresh copies; medians.
 *   pnpm --filter @glossa/test-docs-sites bench
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addVitepressGlossary } from '../test/vitepress-site.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const bin = resolve(packageDir, '../../packages/cli/src/bin.ts');
const vitepressBin = join(dirname(require.resolve('vitepress/package.json')), 'bin', 'vitepress.js');
const ROUNDS = Number(process.env.ROUNDS ?? 3);

/** Runs node with `args` in `cwd`; its wall time in ms and its stdout. Throws on a crash, not on exit 1. */
function timed(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; stdout: string; code: number }> {
  const started = performance.now();
  return new Promise((done, fail) =>
    execFile(process.execPath, args, { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error ? Number(error.code ?? 1) : 0;
      if (code > 1) fail(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else done({ ms: performance.now() - started, stdout, code });
    }),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = { build: [] as number[], cold: [] as number[], warm: [] as number[] };
let last:
  | { segments: number; requests: number; failures: number; warmRequests: number; warmWritten: number }
  | undefined;

for (let round = 0; round < ROUNDS; round++) {
  // Inside this package, so that the site resolves `vitepress` from its node_modules as a project would.
  const site = await mkdtemp(join(packageDir, '.tmp-bench-vitepress-'));
  try {
    await cp(join(packageDir, 'test/fixtures/vitepress'), site, { recursive: true });
    const { GLOSSA_SERVER_URL: _url, GLOSSA_API_KEY: _key, ...rest } = process.env;
    const env = { ...rest, GLOSSA_DATA_DIR: join(site, '.server-data'), NO_COLOR: '1' };
    // The English site as it is before Glossa: no locales.
    await mkdir(join(site, 'docs/.vitepress/glossa'), { recursive: true });
    await writeFile(join(site, 'docs/.vitepress/glossa/locales.json'), '{}\n');
    const build = await timed([vitepressBin, 'build', 'docs'], site, env);
    if (build.code !== 0) throw new Error('vitepress build failed');
    results.build.push(build.ms);
    const glossa = (...args: string[]) =>
      timed([tsx, '--conditions', '@glossa/source', bin, ...args], site, env);
    await glossa('init', '--to', 'es,en-XA', '--json'); // glossa.config.json
    // The glossary and kept names a user adds for the words Apertium does not know (else those segments are
    // reported as failures and sent again on every run).
    await addVitepressGlossary(site);
    const cold = await glossa('translate', '--json');
    const warm = await glossa('translate', '--json');
    results.cold.push(cold.ms);
    results.warm.push(warm.ms);
    const first = JSON.parse(cold.stdout);
    const again = JSON.parse(warm.stdout);
    last = {
      segments: first.segments,
      requests: first.requests,
      failures: first.failures.length,
      warmRequests: again.requests,
      warmWritten: again.written.length,
    };
    if (again.requests !== 0 || again.written.length !== 0)
      throw new Error(`warm rerun sent ${again.requests} requests and wrote ${again.written.length} files`);
  } finally {
    await rm(site, { recursive: true, force: true });
  }
}

const base = median(results.build);
console.log(
  `VitePress docs (12 pages), ${ROUNDS} rounds, medians; baseline: vitepress build of the English site`,
);
console.log('| run | median | ratio to baseline |\n| --- | ---: | ---: |');
for (const [name, values] of [
  ['`vitepress build docs`, English alone (baseline)', results.build],
  ['cold `glossa translate` to es + en-XA (embedded server, Apertium + pseudo)', results.cold],
  ['warm rerun (0 requests, 0 files written)', results.warm],
] as const)
  console.log(
    `| ${name} | ${(median(values) / 1000).toFixed(1)} s | ${(median(values) / base).toFixed(2)} |`,
  );
console.log(JSON.stringify(last));
