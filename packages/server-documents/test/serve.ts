/**
 * `glossa-server` with the spine and document translation, for tests that run the server in a child
 * process (the fleet test: test/fleet.test.ts).
 */
import { runCli } from '@glossa/server';
import { type DocumentOptions, documentsFeature } from '../src/index.js';

const code = await runCli(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  (options) => [documentsFeature(options.documents as DocumentOptions)],
);
process.exit(code);
