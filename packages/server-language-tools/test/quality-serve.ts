/**
 * `glossa-server` with the spine and the language tools, for tests that run the server in child processes
 * (the fleet test: test/quality-fleet.test.ts).
 */
import { runCli } from '@glossa/server';
import { languageToolsFeature } from '../src/index.js';

const code = await runCli(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  () => [languageToolsFeature()],
);
process.exit(code);
