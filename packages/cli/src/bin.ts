#!/usr/bin/env node
import { runCli } from './cli.js';

// `pnpm glossa …` runs in the workspace root; paths on its command line are relative to where it was typed.
const cwd =
  process.env.npm_lifecycle_event === 'glossa' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
process.exitCode = await runCli(process.argv.slice(2), { cwd });
