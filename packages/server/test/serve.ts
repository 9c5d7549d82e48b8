/** `glossa-server` with the spine alone, for tests that run the server in a child process. */
import { runCli } from '../src/index.js';

const code = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exit(code);
