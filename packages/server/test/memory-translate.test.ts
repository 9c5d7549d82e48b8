import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { importTmx, tmx, waitForJob } from './memory-helpers.js';

let t: TestServer;
let memory: string;
const UNITS = [
  ['Your changes have been saved.', 'Se han guardado sus cambios.'],
  ['The file could not be uploaded.', 'No se pudo cargar el archivo.'],
  ['Close the window', 'Cerrar la ventana'],
] as const;

beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
  const job = await importTmx(t, tmx(UNITS), 'ui');
  memory = job.result.translation_memory_id;
});
afterAll(async () => {
  await t.close();
});

const translate = (text: string[], extra: Record<string, unknown> = {}, key?: string) =>
  t.translate(
    { text, source_lang: 'EN', target_lang: 'ES', translation_memory_id: memory, ...extra },
    key === undefined ? {} : { key },
  );

describe('translation memory applied in /v2/translate', () => {
  it('an exact match is the output, reported with score 100 and its text range', async () => {
    const reply = await translate(['Your changes have been saved.'], {
      show_translation_memory_matches: true,
    });
    expect(reply.status).toBe(200);
    const translation = reply.data.translations[0];
    expect(translation.text).toBe('Se han guardado sus cambios.');
    expect(translation.customizations.translation_memory_matches).toEqual([
      {
        translation_memory_id: memory,
        segment_id: expect.any(String),
        match_score: 100,
        text_ranges: [{ start: 0, end: 29 }],
      },
    ]);
  });

  it('a fuzzy match at or above the threshold is used; below it the engine translates', async () => {
    const fuzzy = await translate(['The file could not be uploaded!'], {
      show_translation_memory_matches: true,
    });
    // The differing final mark is carried into the memory's target (issue 21: never pasted verbatim).
    expect(fuzzy.data.translations[0].text).toBe('No se pudo cargar el archivo!');
    // 7 tokens, one differs: ⌊100 × (1 − 1/7)⌋ = 85.
    expect(fuzzy.data.translations[0].customizations.translation_memory_matches[0].match_score).toBe(85);
    const strict = await translate(['The file could not be uploaded!'], {
      translation_memory_threshold: 90,
      show_translation_memory_matches: true,
    });
    expect(strict.data.translations[0].text).not.toBe('No se pudo cargar el archivo.');
    expect(strict.data.translations[0].customizations.translation_memory_matches).toEqual([]);
    const far = await translate(['The window could not be closed.']);
    expect(far.data.translations[0].text).not.toContain('archivo');
  });

  it('works per sentence: one from the memory, the next from the engine, ranges in code points', async () => {
    const text = 'The dog sleeps 😀. Your changes have been saved.';
    const reply = await translate([text], { show_translation_memory_matches: true });
    const translation = reply.data.translations[0];
    expect(translation.text).toMatch(/perro.* Se han guardado sus cambios\.$/);
    // The emoji is one code point (two UTF-16 units): the second sentence starts at code point 18.
    expect(translation.customizations.translation_memory_matches).toEqual([
      expect.objectContaining({ match_score: 100, text_ranges: [{ start: 18, end: 47 }] }),
    ]);
  });

  it('with tag_handling, a unit without inline markup takes the memory; one with inline markup does not', async () => {
    const reply = await translate(['<p>Your changes have been saved.</p><p>Close the <b>window</b></p>'], {
      tag_handling: 'html',
      show_translation_memory_matches: true,
    });
    const translation = reply.data.translations[0];
    expect(translation.text).toMatch(/^<p>Se han guardado sus cambios\.<\/p><p>.*<b>.*<\/b><\/p>$/);
    expect(translation.text).not.toContain('Cerrar la ventana');
    expect(translation.customizations.translation_memory_matches).toHaveLength(1);
  });

  it('case and spacing differences score 99, and the threshold 100 needs the same text', async () => {
    const reply = await translate(['close  the WINDOW'], { show_translation_memory_matches: true });
    expect(reply.data.translations[0].text).toBe('Cerrar la ventana');
    expect(reply.data.translations[0].customizations.translation_memory_matches[0].match_score).toBe(99);
    const exact = await translate(['close  the WINDOW'], { translation_memory_threshold: 100 });
    expect(exact.data.translations[0].text).not.toBe('Cerrar la ventana');
  });

  it('404 for a memory that does not exist, does not cover the pair, or belongs to another account', async () => {
    const unknown = await translate(['Hi'], {
      translation_memory_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    const pair = await t.translate({
      text: ['Hi'],
      source_lang: 'EN',
      target_lang: 'CA',
      translation_memory_id: memory,
    });
    expect(pair.status).toBe(404);
    expect(pair.data.message).toBe(`Translation memory '${memory}' does not cover EN → CA.`);
    const other = await t.server.createAccount({ plan: 'paid', memoryMatches: true });
    expect((await translate(['Hi'], {}, other.key)).status).toBe(404);
    for (const path of ['', '/segments']) {
      expect((await t.call(`/v3/translation_memories/${memory}${path}`, { key: other.key })).status).toBe(
        404,
      );
    }
    expect(
      (await t.call(`/v3/translation_memories/${memory}`, { key: other.key, method: 'DELETE' })).status,
    ).toBe(404);
    expect(
      (await t.call(`/v3/translation_memories/${memory}/export`, { key: other.key, method: 'POST' })).status,
    ).toBe(404);
    expect((await t.call('/v3/translation_memories', { key: other.key })).data).toEqual({
      translation_memories: [],
      total_count: 0,
    });
    const job = (
      await t.call('/v3/translation_memories/import', {
        json: { source_file: { file_name: 'x.tmx', content_length: 10 } },
      })
    ).data.job_id;
    expect((await t.call(`/v3/translation_memories/jobs/${job}`, { key: other.key })).status).toBe(404);
    expect((await t.call(`/v3/translation_memories/jobs/${job}`)).status).toBe(200);
  });

  it('show_translation_memory_matches needs a memory and an account with the option (400)', async () => {
    const without = await t.translate({
      text: ['Hi'],
      source_lang: 'EN',
      target_lang: 'ES',
      show_translation_memory_matches: true,
    });
    expect(without.status).toBe(400);
    const plain = await t.server.createAccount({ plan: 'paid' });
    const notEnabled = await translate(['Hi'], { show_translation_memory_matches: true }, plain.key);
    expect(notEnabled.status).toBe(400);
  });
});

describe('translation memory export', () => {
  it('202 job → completed with a signed download_url → TMX; 200 for the unexpired export; re-importable', async () => {
    const started = await t.call(`/v3/translation_memories/${memory}/export`, { method: 'POST' });
    expect(started.status).toBe(202);
    expect(started.data).toEqual({
      job_id: expect.any(String),
      parameters: { translation_memory_id: memory },
    });
    const done = await waitForJob(t, started.data.job_id);
    expect(done.status).toBe('completed');
    expect(done.result.download_url).toMatch(/\/download\?expires=\d+&signature=[0-9a-f]{64}$/);
    expect(Date.parse(done.result.expires_at)).toBeGreaterThan(Date.now());

    const again = await t.call(`/v3/translation_memories/${memory}/export`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.data.job_id).toBe(started.data.job_id);

    const download = await fetch(done.result.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('application/x-tmx+xml');
    const exported = await download.text();
    expect(exported).toContain('<tmx version="1.4">');
    for (const [en, es] of UNITS) {
      expect(exported).toContain(`<seg>${en}</seg>`);
      expect(exported).toContain(`<seg>${es}</seg>`);
    }
    expect(
      (await t.call(`/v3/translation_memories/jobs/${started.data.job_id}`)).data.results[0].status,
    ).toBe('downloaded');
    const forged = done.result.download_url.replace(/signature=[0-9a-f]+/, `signature=${'a'.repeat(64)}`);
    expect((await fetch(forged)).status).toBe(403);

    const reimported = await importTmx(t, exported, 'round trip');
    expect(reimported.status).toBe('completed');
    const copy = await t.call(`/v3/translation_memories/${reimported.result.translation_memory_id}`);
    expect(copy.data).toMatchObject({ segment_count: 3, source_language: 'en', target_languages: ['es'] });
  });
});
