/**
 * `glossa-server` with the spine and the language tools, for tests that run the server in child processes
 * (the fleet test: test/quality-fleet.test.ts). The models load on first use (`warmUp: false`): the quality
 * tests need none of write's.
 */
import { runCli } from '@glossa/server';
import { languageToolsFeature } from '../src/index.js';

const code = await runCli(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  () => [languageToolsFeature({ warmUp: false })],
);
process.exit(code);
