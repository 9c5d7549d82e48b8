import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStorage, DATABASE_FILE } from '../src/storage/sqlite.js';
import { startTestServer, type TestServer } from './helpers.js';
import { onPostgres } from './services.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const pseudo = (text: string[], extra: object = {}) => ({
  text,
  target_lang: 'en-XA',
  source_lang: 'EN',
  ...extra,
});

describe('quota', () => {
  it('456 when a request would pass the monthly limit: nothing translated, nothing counted', async () => {
    const { key } = await t.server.createAccount({ plan: 'paid', characterLimit: 20 });
    const count = async () => (await t.call('/v2/usage', { key })).data.character_count;
    expect((await t.translate(pseudo(['twelve chars']), { key })).status).toBe(200);
    const refused = await t.translate(pseudo(['ten chars!']), { key });
    expect(refused.status).toBe(456);
    expect(refused.data).toEqual({
      message: 'Quota exceeded: the character limit of this billing period has been reached.',
      code: 'quota_exceeded',
    });
    expect(refused.data.translations).toBeUndefined();
    expect(await count()).toBe(12);
    expect((await t.translate(pseudo(['eight ch']), { key })).status).toBe(200);
    expect(await count()).toBe(20);
    expect((await t.translate(pseudo(['x']), { key })).status).toBe(456);
    expect((await t.translate(pseudo(['']), { key })).status).toBe(200);
    expect(await count()).toBe(20);
  });

  it('concurrent requests never pass the limit together', async () => {
    const { key } = await t.server.createAccount({ plan: 'paid', characterLimit: 100 });
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => t.translate(pseudo(['ten chars!']), { key })),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 456)).toHaveLength(20);
    expect((await t.call('/v2/usage', { key })).data.character_count).toBe(100);
  });

  it('counts code points per text, not context, not markup', async () => {
    const { key } = await t.server.createAccount({ plan: 'paid' });
    const count = async () => (await t.call('/v2/usage', { key })).data.character_count;
    await t.translate(pseudo(['日本語 😀', 'ab'], { context: 'never billed context' }), { key });
    expect(await count()).toBe(7);
    await t.translate(pseudo(['<p>Hi <b>you</b></p>'], { tag_handling: 'html' }), { key });
    expect(await count()).toBe(13);
  });
});

describe('GET /v2/usage', () => {
  it('free plan: count and limit only', async () => {
    const { key } = await t.server.createAccount({ plan: 'free' });
    await t.translate(pseudo(['four']), { key, base: t.server.freeUrl });
    const usage = await t.call('/v2/usage', { key, base: t.server.freeUrl });
    expect(usage.data).toEqual({ character_count: 4, character_limit: 500000 });
  });

  it('paid plan: products, key counts and the calendar-month period', async () => {
    const { key } = await t.server.createAccount({ plan: 'paid', characterLimit: 1000 });
    await t.translate(pseudo(['seven c']), { key });
    const { data } = await t.call('/v2/usage', { key });
    const now = new Date();
    expect(data).toEqual({
      character_count: 7,
      character_limit: 1000,
      products: [
        {
          product_type: 'translate',
          billing_unit: 'characters',
          api_key_unit_count: 7,
          account_unit_count: 7,
        },
        { product_type: 'write', billing_unit: 'characters', api_key_unit_count: 0, account_unit_count: 0 },
        {
          product_type: 'speech_to_text',
          billing_unit: 'minutes',
          api_key_unit_count: 0,
          account_unit_count: 0,
        },
      ],
      api_key_character_count: 7,
      api_key_character_limit: 1000,
      start_time: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      end_time: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });
  });
});

describe('custom-tag analytics', () => {
  const today = new Date().toISOString().slice(0, 10);
  const analytics = (query: string, key?: string) =>
    t.call(`/v2/admin/analytics/custom-tags?${query}`, key === undefined ? {} : { key });

  it('is for administrators only', async () => {
    const { key } = await t.server.createAccount({ plan: 'paid' });
    const reply = await analytics(`start_date=${today}&end_date=${today}`, key);
    expect(reply.status).toBe(403);
    expect(reply.data).toEqual({
      message: 'Access denied: this endpoint is for organization administrators.',
      code: 'feature_not_enabled',
    });
  });

  it('checks dates, the 366-day range and aggregate_by', async () => {
    const status = async (query: string) => (await analytics(query)).status;
    expect((await analytics('start_date=2025-01-01&end_date=2026-01-03')).data.message).toBe(
      "The range from 'start_date' to 'end_date' must not exceed 366 days.",
    );
    expect(await status('start_date=2025-01-01&end_date=2026-01-02')).toBe(200);
    expect(await status('start_date=2025-02-01&end_date=2025-01-01')).toBe(400);
    expect(await status('start_date=2025-02-30&end_date=2025-03-01')).toBe(400);
    expect(await status('end_date=2025-03-01')).toBe(400);
    expect(await status('start_date=2025-01-01&end_date=2025-02-01&aggregate_by=week')).toBe(400);
    expect(
      (await analytics('start_date=2025-01-01&end_date=2025-02-01&aggregate_by=')).data
        .custom_tag_usage_report.aggregate_by,
    ).toBe('period');
    expect(await status('start_date=2025-01-01&end_date=2025-02-01&page=-1')).toBe(400);
  });

  it('reports usage per normalized tag, per period or per day; other accounts are invisible', async () => {
    const admin = await t.server.createAccount({ plan: 'paid', admin: true });
    const other = await t.server.createAccount({ plan: 'paid', admin: true });
    const tagged = (key: string, tag: string, text: string) =>
      t.translate(pseudo([text]), { key, headers: { 'x-service-reporting-tag': tag } });
    await tagged(admin.key, ' Docs-Site ', 'abcde');
    await tagged(admin.key, 'docs-site', 'abc');
    await tagged(admin.key, 'app', 'ab');
    await t.translate(pseudo(['untagged']), { key: admin.key });
    await tagged(other.key, 'docs-site', 'x'.repeat(50));

    const period = await analytics(`start_date=${today}&end_date=${today}`, admin.key);
    expect(period.data).toEqual({
      custom_tag_usage_report: {
        aggregate_by: 'period',
        start_date: `${today}T00:00:00Z`,
        end_date: `${today}T00:00:00Z`,
        next_page: null,
        usage: [
          {
            custom_tag: 'app',
            breakdown: {
              total_characters: 2,
              text_translation_characters: 2,
              text_improvement_characters: 0,
              speech_to_text_minutes: 0,
              speech_to_speech_minutes: 0,
            },
          },
          {
            custom_tag: 'docs-site',
            breakdown: {
              total_characters: 8,
              text_translation_characters: 8,
              text_improvement_characters: 0,
              speech_to_text_minutes: 0,
              speech_to_speech_minutes: 0,
            },
          },
        ],
        // Glossa's additive per-engine characters: the account's, tagged or not.
        engine_usage: [{ engine: 'pseudo', characters: 5 + 3 + 2 + 8 }],
      },
    });
    const byDay = await analytics(`start_date=${today}&end_date=${today}&aggregate_by=day`, admin.key);
    expect(
      byDay.data.custom_tag_usage_report.usage.map((u: { custom_tag: string; usage_date: string }) => [
        u.custom_tag,
        u.usage_date,
      ]),
    ).toEqual([
      ['app', `${today}T00:00:00Z`],
      ['docs-site', `${today}T00:00:00Z`],
    ]);
    const otherReport = await analytics(`start_date=${today}&end_date=${today}`, other.key);
    expect(otherReport.data.custom_tag_usage_report.usage).toEqual([
      { custom_tag: 'docs-site', breakdown: expect.objectContaining({ text_translation_characters: 50 }) },
    ]);
    expect(otherReport.data.custom_tag_usage_report.engine_usage).toEqual([
      { engine: 'pseudo', characters: 50 },
    ]);
    const before = await analytics('start_date=2020-01-01&end_date=2020-12-31', admin.key);
    expect(before.data.custom_tag_usage_report.usage).toEqual([]);
    expect(before.data.custom_tag_usage_report.engine_usage).toEqual([]);
  });

  it('pages by next_page until it is null', async () => {
    const admin = await t.server.createAccount({ plan: 'paid', admin: true });
    for (let i = 0; i < 101; i++) {
      await t.translate(pseudo(['a']), {
        key: admin.key,
        headers: { 'x-service-reporting-tag': `tag-${String(i).padStart(3, '0')}` },
      });
    }
    const page0 = (await analytics(`start_date=${today}&end_date=${today}`, admin.key)).data
      .custom_tag_usage_report;
    expect(page0.usage).toHaveLength(100);
    expect(page0.next_page).toBe(1);
    const page1 = (await analytics(`start_date=${today}&end_date=${today}&page=1`, admin.key)).data
      .custom_tag_usage_report;
    expect(page1.usage.map((u: { custom_tag: string }) => u.custom_tag)).toEqual(['tag-100']);
    expect(page1.next_page).toBeNull();
  });
});

// SQLite's write-behind of usage, read from the file itself; PostgreSQL writes each reservation at once.
describe.skipIf(onPostgres)('persistence', () => {
  const storedCharacters = (dataDir: string) => {
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      return (
        db
          .prepare("SELECT COALESCE(SUM(units), 0) AS units FROM usage WHERE product = 'translate'")
          .get() as {
          units: number;
        }
      ).units;
    } finally {
      db.close();
    }
  };

  it('usage reaches the database within a moment of the answer, with no read to prompt it', async () => {
    const server = await startTestServer();
    try {
      await server.translate(pseudo(['stored characters']));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(storedCharacters(server.dataDir)).toBe(17);
    } finally {
      await server.close();
    }
  });

  it('closing writes the usage still waiting, and it survives a restart', async () => {
    const first = await startTestServer();
    await first.translate(pseudo(['stored characters']));
    await first.server.close();
    expect(storedCharacters(first.dataDir)).toBe(17);
    const again = await startTestServer({ dataDir: first.dataDir });
    try {
      expect((await again.call('/v2/usage')).data.character_count).toBe(17);
    } finally {
      await again.close();
    }
  });

  it('a usage write that fails is kept and retried, and reservations fail until it succeeds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-usage-'));
    const storage = createSqliteStorage(dataDir);
    const other = new Database(join(dataDir, DATABASE_FILE));
    try {
      const account = await storage.createAccount({
        id: 'acct',
        plan: 'paid',
        admin: false,
        detectionBeta: false,
        qualityAlpha: false,
        voiceJobsAlpha: false,
        memoryMatches: false,
        characterLimit: 100,
      });
      const key = await storage.addKey(account.id, 'hash');
      const reservation = (units: number) => ({
        accountId: account.id,
        keyId: key.id,
        product: 'translate' as const,
        customTag: '',
        day: '2026-11-22',
        units,
        periodFrom: '2026-11-01',
        periodTo: '2026-12-01',
        limit: 100,
      });
      const totals = () => storage.usageTotals(account.id, key.id, '2026-11-01', '2026-12-01');
      expect(await storage.reserveCharacters(reservation(5))).toBe(true);
      // Another connection takes the table away: the write fails.
      other.exec('ALTER TABLE usage RENAME TO usage_away');
      await expect(totals()).rejects.toThrow(/usage/);
      await expect(storage.reserveCharacters(reservation(3))).rejects.toThrow(/usage/);
      other.exec('ALTER TABLE usage_away RENAME TO usage');
      expect(await storage.reserveCharacters(reservation(3))).toBe(true);
      expect(await totals()).toEqual([{ product: 'translate', accountUnits: 8, keyUnits: 8 }]);
    } finally {
      other.close();
      await storage.close();
    }
  });
});

describe('tenant isolation', () => {
  it("another account's usage is invisible", async () => {
    const a = await t.server.createAccount({ plan: 'paid' });
    const b = await t.server.createAccount({ plan: 'paid' });
    await t.translate(pseudo(['only for a']), { key: a.key });
    expect((await t.call('/v2/usage', { key: a.key })).data.character_count).toBe(10);
    expect((await t.call('/v2/usage', { key: b.key })).data.character_count).toBe(0);
  });
});
