import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers.js';

let remote: TestServer;
let gateway: TestServer;
beforeAll(async () => {
  remote = await startTestServer();
  gateway = await startTestServer({ upstream: { url: remote.server.url, key: remote.server.devKey } });
});
afterAll(async () => {
  await gateway.close();
  await remote.close();
});

describe('upstream option (gateway mode, two real servers over loopback)', () => {
  it('local engines still serve what they can; usage is counted on the gateway only', async () => {
    const reply = await gateway.translate({
      text: ['The house is big.'],
      target_lang: 'ES',
      source_lang: 'EN',
    });
    expect(reply.data.translations[0].text).toBe('La casa es grande.');
    expect((await gateway.call('/v2/usage')).data.character_count).toBe(17);
    expect((await remote.call('/v2/usage')).data.character_count).toBe(0);
  });

  it('a pair the remote does not list is not claimed: 400, never sent upstream', async () => {
    const reply = await gateway.translate({ text: ['日本語の文'], target_lang: 'ES', source_lang: 'JA' });
    expect(reply.status).toBe(400);
    expect(reply.data.code).toBe('unsupported_language');
    expect(reply.data.message).toBe("Language pair JA → ES is not supported by this server's engines.");
    expect((await gateway.call('/v2/usage')).data.character_count).toBe(17);
  });

  it('a claimed pair the remote refuses (ca→es: no Spanish leg there either) is a 400, not a 503', async () => {
    const reply = await gateway.translate({ text: ['El cotxe.'], target_lang: 'ES', source_lang: 'CA' });
    expect(reply.status).toBe(400);
    expect(reply.data.code).toBe('unsupported_language');
    expect(reply.data.message).toBe(
      "Language pair not supported by the remote service: upstream: Language pair CA → ES is not supported by this server's engines.",
    );
    expect((await gateway.call('/v2/usage')).data.character_count).toBe(17);
  });

  it('an unreachable upstream fails startServer and leaves the data directory usable', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-upstream-'));
    try {
      await expect(
        startServer({
          dataDir,
          port: 0,
          freePort: 0,
          logger: false,
          upstream: { url: 'http://127.0.0.1:9', key: 'k' },
        }),
      ).rejects.toThrow(/upstream/);
      const server = await startServer({ dataDir, port: 0, freePort: 0, logger: false });
      await server.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
