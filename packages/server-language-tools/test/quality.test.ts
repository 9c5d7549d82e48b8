import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const evaluate = (json: unknown, options = {}) => t.call('/v3/quality/evaluate', { json, ...options });

describe('POST /v3/quality/evaluate', () => {
  it('reports a missing tag and a changed number, with code-point spans into the translation', async () => {
    const translation = 'Haga clic en Guardar para conservar 52 archivos.';
    const reply = await evaluate({
      source_lang: 'en',
      target_lang: 'es',
      segments: [{ source: 'Click <b>Save</b> to keep 25 files.', translation }],
    });
    expect(reply.status).toBe(200);
    expect(reply.data).toEqual({
      segments: [
        {
          issues: [
            {
              category: 'markup',
              severity: 'major',
              message: 'The tag <b> of the source is missing.',
              start: 0,
              end: 48,
              check: 'missing_tag',
            },
            {
              category: 'markup',
              severity: 'major',
              message: 'The tag </b> of the source is missing.',
              start: 0,
              end: 48,
              check: 'missing_tag',
            },
            {
              category: 'number',
              severity: 'major',
              message: 'The number 52 differs from 25 in the source.',
              start: 36,
              end: 38,
              check: 'number_mismatch',
            },
          ],
        },
      ],
    });
  });

  it('answers one entry per segment, in order, empty for a good translation', async () => {
    const reply = await evaluate({
      source_lang: 'en',
      target_lang: 'de',
      segments: [
        { source: 'Open {{count}} files.', translation: 'Öffnen Sie {{count}} Dateien.' },
        { source: 'Save your work.', translation: '' },
        { source: 'Save your work.', translation: 'Save your work.' },
      ],
    });
    expect(
      reply.data.segments.map((s: { issues: { check: string }[] }) => s.issues.map((i) => i.check)),
    ).toEqual([[], ['empty_target'], ['untranslated']]);
  });

  it('checks target spelling with the target language dictionary (Hunspell), spans in code points', async () => {
    const reply = await evaluate({
      source_lang: 'en',
      target_lang: 'es',
      segments: [{ source: '😀 Open the file now.', translation: '😀 Abra el arhcivo ahora.' }],
    });
    expect(reply.data.segments[0].issues).toEqual([
      {
        category: 'spelling',
        severity: 'minor',
        message: '"arhcivo" may be misspelled.',
        start: 10,
        end: 17,
        check: 'spelling',
      },
    ]);
  });

  it('checks English spelling in the target dialect', async () => {
    const reply = await evaluate({
      source_lang: 'de',
      target_lang: 'en-GB',
      segments: [{ source: 'Die Farbe ist schön.', translation: 'The color is beautifull.' }],
    });
    expect(reply.data.segments[0].issues.map((i: { message: string }) => i.message)).toEqual([
      '"color" may be misspelled.',
      '"beautifull" may be misspelled.',
    ]);
  });

  it('reports doubled words, whitespace, punctuation and placeholders', async () => {
    const reply = await evaluate({
      source_lang: 'en',
      target_lang: 'fr',
      segments: [{ source: 'Hello %s, are you sure?', translation: ' Bonjour, êtes-vous sûr sûr.' }],
    });
    expect(
      reply.data.segments[0].issues.map((i: { check: string; start: number; end: number }) => [
        i.check,
        i.start,
        i.end,
      ]),
    ).toEqual([
      ['leading_whitespace', 0, 1],
      ['missing_placeholder', 0, 28],
      ['doubled_word', 24, 27],
      ['punctuation', 27, 28],
    ]);
  });

  it('accepts a form body with indexed segments', async () => {
    const reply = await t.call('/v3/quality/evaluate', {
      form: [
        ['source_lang', 'en'],
        ['target_lang', 'es'],
        ['segments[0].source', 'Keep 25 files.'],
        ['segments[0].translation', 'Conserve 26 archivos.'],
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.data.segments[0].issues.map((issue: { check: string }) => issue.check)).toEqual([
      'number_mismatch',
    ]);
  });

  it('is a closed alpha: 403 for an account without the flag, 200 with it', async () => {
    const body = {
      source_lang: 'en',
      target_lang: 'es',
      segments: [{ source: 'Hi.', translation: 'Hola.' }],
    };
    const plain = await t.server.createAccount({ plan: 'paid' });
    const denied = await evaluate(body, { key: plain.key });
    expect(denied.status).toBe(403);
    expect(denied.data).toEqual({
      message: 'Access denied: quality evaluation is a closed alpha this account is not part of.',
      code: 'feature_not_enabled',
    });
    const flagged = await t.server.createAccount({ plan: 'paid', qualityAlpha: true });
    expect((await evaluate(body, { key: flagged.key })).status).toBe(200);
  });

  it('reports glossary terms not used, from the glossary of the account for the pair', async () => {
    const created = await t.call('/v2/glossaries', {
      json: {
        name: 'UI',
        source_lang: 'en',
        target_lang: 'es',
        entries: 'file\tfichero\nsave\tguardar',
        entries_format: 'tsv',
      },
    });
    expect(created.status).toBe(201);
    const reply = await evaluate({
      source_lang: 'en',
      target_lang: 'es',
      glossary_id: created.data.glossary_id,
      segments: [
        { source: 'Save the file.', translation: 'Guarde el archivo.' },
        { source: 'Open the file.', translation: 'Abra el fichero.' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.data.segments).toEqual([
      {
        issues: [
          {
            category: 'terminology',
            severity: 'major',
            message: 'The glossary term "file" should be translated as "fichero".',
            start: 0,
            end: 18,
            check: 'glossary_term',
          },
          {
            category: 'terminology',
            severity: 'major',
            message: 'The glossary term "save" should be translated as "guardar".',
            start: 0,
            end: 18,
            check: 'glossary_term',
          },
        ],
      },
      { issues: [] },
    ]);
    const otherPair = await evaluate({
      source_lang: 'en',
      target_lang: 'de',
      glossary_id: created.data.glossary_id,
      segments: [{ source: 'Open the file.', translation: 'Öffnen Sie die Datei.' }],
    });
    expect(otherPair.status).toBe(400);
    const stranger = await t.server.createAccount({ plan: 'paid', qualityAlpha: true });
    const isolated = await evaluate(
      {
        source_lang: 'en',
        target_lang: 'es',
        glossary_id: created.data.glossary_id,
        segments: [{ source: 'a', translation: 'b' }],
      },
      { key: stranger.key },
    );
    expect(isolated.status).toBe(404);
  });

  it('answers 404 for a glossary the account does not have', async () => {
    const reply = await evaluate({
      source_lang: 'en',
      target_lang: 'es',
      glossary_id: '0f9c2a52-4a0e-4d7c-9d1f-5a3b2c1d0e9f',
      segments: [{ source: 'Open the file.', translation: 'Abra el archivo.' }],
    });
    expect(reply.status).toBe(404);
  });

  it('answers 400 for unknown languages, no segments, or a segment without translation', async () => {
    const segments = [{ source: 'a', translation: 'b' }];
    expect((await evaluate({ source_lang: 'xx', target_lang: 'es', segments })).status).toBe(400);
    expect((await evaluate({ source_lang: 'en', target_lang: 'es', segments: [] })).status).toBe(400);
    const missing = await evaluate({ source_lang: 'en', target_lang: 'es', segments: [{ source: 'a' }] });
    expect(missing.status).toBe(400);
    expect(missing.data.message).toBe("Missing required parameter 'segments[0].translation'.");
  });
});
