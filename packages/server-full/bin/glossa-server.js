#!/usr/bin/env node
// Runs the compiled command (dist/ is built before publishing; in the workspace, `pnpm glossa-server` runs the sources).
import '../dist/bin.js';
