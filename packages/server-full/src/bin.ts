#!/usr/bin/env node
import { runCli } from '@glossa/server';
import { allFeatures } from './index.js';

const code = await runCli(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  allFeatures,
);
process.exit(code);
