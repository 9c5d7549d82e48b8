/**
 * Extraction throughput on a large public React code base vs the parser alone. The code base is read
 * from a bare git repository at bench time (nothing of it is committed): by default Excalidraw
 * (github.com/excalidraw/excalidraw, MIT), fetched as a bare repo; `GLOSSA_BENCH_REPO=<git dir>` for
 * another. Every `.tsx`/`.jsx` file outside tests and stories is parsed with oxc (`parseSync` from
 * `vite`, what extraction uses) and extracted with `extractComponent`, in interleaved rounds; medians.
 *
 *   pnpm --filter @glossa/vite exec tsx --conditions @glossa/source bench/extract.ts
 */
import { execFileSync } from 'node:child_process';
import { parseSync } from 'vite';
import { extractComponent, scriptOptionsOf } from '../src/components/extract.js';

const repo = process.env.GLOSSA_BENCH_REPO ?? '/work/.mirror/excalidraw+excalidraw/repo';
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const git = (...args: string[]) =>
  execFileSync('git', [`--git-dir=${repo}`, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

const commit = git('rev-parse', 'HEAD').trim();
const paths = git('ls-tree', '-r', '--name-only', 'HEAD')
  .split('\n')
  .filter((p) => /\.(tsx|jsx)$/.test(p) && !/(test|spec|stories|__tests__|fixtures)/i.test(p));
const files = paths.map((path) => ({ path, code: git('show', `HEAD:${path}`) }));
const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.code), 0);
const components = files.reduce(
  (sum, f) =>
    sum + (f.code.match(/(?:^|\n)(?:export\s+)?(?:default\s+)?(?:const|function)\s+[A-Z]\w*/g)?.length ?? 0),
  0,
);
const options = scriptOptionsOf({});

let units = 0;
let failed = 0;
const lang = (path: string) => (path.endsWith('jsx') ? 'jsx' : 'tsx');
let sink = 0;
const variants = {
  // oxc parses natively and hands the AST to JavaScript lazily: reading `program` deserializes it.
  'parse only': async () => {
    for (const f of files) sink += parseSync(f.path, f.code, { lang: lang(f.path) }).errors.length;
  },
  'parse + AST': async () => {
    for (const f of files) sink += parseSync(f.path, f.code, { lang: lang(f.path) }).program.body.length;
  },
  extraction: async () => {
    units = 0;
    failed = 0;
    for (const f of files) {
      try {
        units += (await extractComponent(f.path, f.code, options)).length;
      } catch {
        failed++;
      }
    }
  },
};
type Name = keyof typeof variants;
const names = Object.keys(variants) as Name[];
const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Name, number[]>;
for (let round = 0; round < ROUNDS + 1; round++) {
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const start = performance.now();
    await variants[name]();
    if (round > 0) times[name].push(performance.now() - start); // round 0 warms up
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = bytes / 1e6;
console.log(
  `${repo.split('/').at(-2)} @ ${commit.slice(0, 12)}: ${files.length} .tsx/.jsx files, ${mb.toFixed(2)} MB,`,
);
console.log(
  `  ~${components} top-level components (capitalised const/function), ${units} units found, ${failed} files failed`,
);
for (const name of names) {
  const ms = median(times[name]);
  console.log(
    `  ${name.padEnd(13)} ${ms.toFixed(0).padStart(5)} ms median of ${ROUNDS}: ${(mb / (ms / 1000)).toFixed(1)} MB/s, ${Math.round(files.length / (ms / 1000))} files/s`,
  );
}
const ratio = (a: Name, b: Name) => (median(times[a]) / median(times[b])).toFixed(2);
console.log(
  `  extraction / parse + AST: ${ratio('extraction', 'parse + AST')}×; / parse only: ${ratio('extraction', 'parse only')}× (${sink > 0 ? 'ok' : ''})`,
);
