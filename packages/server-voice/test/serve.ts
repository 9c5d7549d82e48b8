/**
 * `glossa-server` with the spine and voice, for tests that run the server in a child process (the fleet
 * test: test/voice-fleet.test.ts).
 */
import { runCli } from '@glossa/server';
import { voiceFeature } from '../src/index.js';

const code = await runCli(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  () => [voiceFeature()],
);
process.exit(code);
