/**
 * Where a worker thread written in TypeScript starts: its compiled `.js` next to this module's caller when the
 * package is built, else (tests, tsx) `source-entry.mjs`, which registers tsx in the thread (Node 20 does
 * not carry `--import` hooks into worker threads) and then loads the `.ts` module given as its last argument.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

/** The thread's URL and options for `new Worker(url, options)`, given its module's compiled URL (`./x.js`). */
export function threadEntry(compiled: URL): { url: URL; options: Pick<WorkerOptions, 'execArgv' | 'argv'> } {
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, options: { execArgv: [] } };
  return {
    url: new URL('./source-entry.mjs', import.meta.url),
    options: {
      execArgv: ['--conditions', '@glossa/source'],
      argv: [compiled.href.replace(/\.js$/, '.ts')],
    },
  };
}
