#!/usr/bin/env node
import { startWithFewArenas } from './malloc-arenas.js';

// Imported after the decision: the process that only starts the server again loads nothing else.
if (!startWithFewArenas()) {
  const { runCli } = await import('@glossa/server');
  const { allFeatures, withFullServerDefaults } = await import('./index.js');
  const code = await runCli(
    withFullServerDefaults(process.argv.slice(2), process.env),
    {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    },
    allFeatures,
  );
  process.exit(code);
}
