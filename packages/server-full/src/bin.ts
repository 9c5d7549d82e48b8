#!/usr/bin/env node
import { runCli } from '@glossa/server';
import { allFeatures, withFullServerDefaults } from './index.js';

const code = await runCli(
  withFullServerDefaults(process.argv.slice(2), process.env),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  allFeatures,
);
process.exit(code);
