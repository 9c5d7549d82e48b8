import { describe, expect, it } from 'vitest';
import { startTestServer } from './helpers.js';

describe('request log', () => {
  it('logs method, path, status and account per request, never a key, a query string or a body', async () => {
    const lines: string[] = [];
    const t = await startTestServer({
      logger: { level: 'info', stream: { write: (line) => void lines.push(line) } },
    });
    try {
      const other = await t.server.createAccount({ plan: 'paid' });
      await t.translate({ text: ['secret text'], target_lang: 'en-XA', source_lang: 'EN' });
      await t.call(`/v2/usage?auth_key=${other.key}`, { key: other.key });
      await t.call('/v2/usage', { key: `${t.server.devKey}x` });
      await t.call('/v2/translate', { raw: '{"text":', headers: { 'content-type': 'application/json' } });
      const log = lines.join('');
      for (const secret of [t.server.devKey, other.key, 'secret text', 'auth_key'])
        expect(log).not.toContain(secret);
      const records = lines.map((line) => JSON.parse(line)).filter((record) => record.msg === 'request');
      expect(records.map((r) => [r.method, r.path, r.status])).toEqual([
        ['POST', '/v2/translate', 200],
        ['GET', '/v2/usage', 200],
        ['GET', '/v2/usage', 403],
        ['POST', '/v2/translate', 400],
      ]);
      expect(records[1].account).toBe(other.accountId);
      expect(records.every((r) => /^[0-9a-f]{32}$/.test(r.reqId))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
