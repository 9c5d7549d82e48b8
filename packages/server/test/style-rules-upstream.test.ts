import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamEngine } from '../src/engines/upstream.js';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * What the upstream engine forwards, seen by a loopback server of this test standing in for the remote
 * service (a real Glossa server ignores instructions, so it could not show what it received).
 */
const seen: Record<string, unknown>[] = [];
let remote: Server;
let t: TestServer;

beforeAll(async () => {
  remote = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/v3/languages')) {
      res.end(
        JSON.stringify([
          { lang: 'en', usable_as_source: true, usable_as_target: false, features: {} },
          { lang: 'de', usable_as_source: true, usable_as_target: true, features: {} },
        ]),
      );
      return;
    }
    const body = JSON.parse(raw) as { text: string[] };
    seen.push(body);
    res.end(JSON.stringify({ translations: body.text.map((text) => ({ text: `[${text}]` })) }));
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  const engine = await createUpstreamEngine({ baseUrl: url, authKey: 'remote-key' });
  t = await startTestServer({ engines: [engine] });
});
afterAll(async () => {
  await t.close();
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
});

describe('custom instructions with the upstream engine (loopback remote records the requests)', () => {
  it('applies the deterministic ones itself and forwards the others as custom_instructions', async () => {
    const list = await t.call('/v3/style_rules', {
      json: {
        name: 'de',
        language: 'de',
        custom_instructions: [
          { label: 'tone', prompt: 'Be formal.' },
          { label: 'term', prompt: 'Use "Auto" instead of "Wagen"' },
        ],
      },
    });
    expect(list.status).toBe(201);
    seen.length = 0;
    const reply = await t.translate({
      text: ['Wagen'],
      source_lang: 'EN',
      target_lang: 'DE',
      style_id: list.data.style_id,
      custom_instructions: ['Keep it short.'],
    });
    expect(reply.status).toBe(200);
    expect(reply.data.translations[0].text).toBe('[Auto]');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.custom_instructions).toEqual(['Be formal.', 'Keep it short.']);
  });

  it('sends no custom_instructions when there are none to forward', async () => {
    seen.length = 0;
    const reply = await t.translate({ text: ['Hallo'], source_lang: 'EN', target_lang: 'DE' });
    expect(reply.status).toBe(200);
    expect(seen[0]).not.toHaveProperty('custom_instructions');
  });
});
