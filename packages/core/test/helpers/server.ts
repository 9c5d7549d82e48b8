import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GlossaClient } from '@glossa/client';
import { startServer } from '@glossa/server';

/** A real @glossa/server on loopback with a temporary data dir, and a client with its dev key. */
export async function startTestServer() {
  const dataDir = await mkdtemp(join(tmpdir(), 'glossa-core-server-'));
  const server = await startServer({ dataDir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
  const client = new GlossaClient({ authKey: server.devKey, serverUrl: server.url });
  return {
    server,
    client,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
