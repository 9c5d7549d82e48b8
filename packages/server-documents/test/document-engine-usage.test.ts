/**
 * Documents report what the engines were sent to the account's per-engine usage, as /v2/translate does:
 * a real server over HTTP, documents translated to en-XA (the pseudo engine) and to Spanish (Apertium), the
 * analytics response's `engine_usage` read after each. Only the texts an engine was sent count: the output
 * cache's answers count nothing, nor do inline codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
/** Today is inside the range whenever the test runs (also across midnight UTC). */
const RANGE = `start_date=${day(-1)}&end_date=${day(1)}`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** The account's characters per engine, today's range. */
async function engines(): Promise<Record<string, number>> {
  const reply = await t.call(`/v2/admin/analytics/custom-tags?${RANGE}`);
  expect(reply.status, reply.text).toBe(200);
  const rows = reply.data.custom_tag_usage_report.engine_usage as { engine: string; characters: number }[];
  return Object.fromEntries(rows.map((row) => [row.engine, row.characters]));
}

describe('document translation in the per-engine usage', () => {
  it('counts the texts each engine was sent, once; the same document again (output cache) adds nothing', async () => {
    expect(await engines()).toEqual({});
    // Two sentences, each sent as a unit: 12 + 20 code points (the line breaks are kept, not sent).
    const text = 'Hello world.\nThe red car is fast.\n';
    const first = await translateFile(t, 'a.txt', text, { target_lang: 'en-XA', source_lang: 'EN' });
    expect(first.final.status).toBe('done');
    expect(await engines()).toEqual({ pseudo: 12 + 20 });

    const again = await translateFile(t, 'b.txt', text, { target_lang: 'en-XA', source_lang: 'EN' });
    expect(again.final.status).toBe('done');
    expect(again.text).toBe(first.text);
    expect(await engines()).toEqual({ pseudo: 32 });

    // Spanish is Apertium's, counted under its own name: "The house is big." is 17.
    const es = await translateFile(t, 'c.txt', 'The house is big.\n', {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    expect(es.final.status).toBe('done');
    expect(await engines()).toEqual({ pseudo: 32, apertium: 17 });
  });

  it('an HTML document: the inline codes of its markup are not counted', async () => {
    const before = await engines();
    const html =
      '<!DOCTYPE html><html><head><title>Settings</title></head><body><p>Open the <b>settings</b> page.</p></body></html>';
    const done = await translateFile(t, 'p.html', html, { target_lang: 'en-XA', source_lang: 'EN' });
    expect(done.final.status).toBe('done');
    // "Settings" (8) and "Open the settings page." (23): the <b> around "settings" is sent as a code.
    expect(await engines()).toEqual({ ...before, pseudo: (before.pseudo ?? 0) + 8 + 23 });
  });
});
