#!/usr/bin/env node
// Runs the compiled command (dist/ is built before publishing; in the workspace, `pnpm glossa` runs the sources).
import '../dist/bin.js';
