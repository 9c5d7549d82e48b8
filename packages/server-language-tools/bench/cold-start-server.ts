/**
 * A server with the language tools in a process of its own, for bench/cold-start.ts: `warm` (the default:
 * models loaded at start, `/ready` waits for them) or `lazy` (`warmUp: false`, each loads on first use: the
 * behaviour before). Prints one JSON line `{url, key, pid}` once it listens.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { languageToolsFeature } from '../src/index.js';

const server = await startServer({
  dataDir: mkdtempSync(join(tmpdir(), 'glossa-bench-cold-')),
  ...BENCH_SERVER_OPTIONS,
  features: [languageToolsFeature({ warmUp: process.argv[2] !== 'lazy' })],
});
console.log(JSON.stringify({ url: server.url, key: server.devKey, pid: process.pid }));
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
