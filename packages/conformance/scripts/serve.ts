/**
 * Starts a Glossa server with every feature for a client of the public protocol (the official client's own
 * test suite, run from its repository: see readme.md). Prints the paid-plan URL and the development key.
 * Usage: tsx --conditions @glossa/source scripts/serve.ts [port]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allFeatures, startServer } from '@glossa/server-full';

const port = Number(process.argv[2] ?? 0);
const server = await startServer({
  dataDir: mkdtempSync(join(tmpdir(), 'glossa-conformance-')),
  port,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  rateLimit: false,
  features: allFeatures(),
});
process.stdout.write(`${JSON.stringify({ url: server.url, key: server.devKey })}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
