import { DETECTION_LANGUAGES, MAX_DETECT_TEXTS } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const detect = (text: unknown, options = {}) => t.call('/v3/detect/language', { json: { text }, ...options });

describe('POST /v3/detect/language', () => {
  it('answers each status, in request order, with a language only on success', async () => {
    const reply = await detect([
      'Das ist ein ganz normaler deutscher Satz über das Wetter.',
      'Ceci est une phrase française tout à fait ordinaire.',
      'Perpustakaan akan ditutup untuk renovasi sampai akhir bulan.',
      'Jeg heter Ola, og jeg bor i en liten by nord for Oslo sammen med familien min.',
      '12345 !!!',
      'Habari za asubuhi, rafiki yangu mpendwa. Natumaini uko salama na familia yako.',
      'hello world',
    ]);
    expect(reply.status).toBe(200);
    expect(reply.data).toEqual({
      results: [
        { detection_status: 'success', detected_language: 'de' },
        { detection_status: 'success', detected_language: 'fr' },
        { detection_status: 'success', detected_language: 'id' },
        { detection_status: 'success', detected_language: 'nb' },
        { detection_status: 'no_language_detected' },
        { detection_status: 'unsupported_language' },
        { detection_status: 'insufficient_confidence' },
      ],
    });
  });

  it('answers only codes of the 33 detection languages', async () => {
    const reply = await detect([
      'Добрый день, как у вас дела сегодня?',
      'Добрий день, як у вас справи сьогодні?',
      '今日はとても良い天気ですね。',
      '오늘은 날씨가 정말 좋네요.',
      'שלום, מה שלומך היום?',
      'Xin chào, hôm nay bạn thế nào?',
    ]);
    const languages = reply.data.results.map(
      (result: { detected_language?: string }) => result.detected_language,
    );
    expect(languages).toEqual(['ru', 'uk', 'ja', 'ko', 'he', 'vi']);
    for (const language of languages) expect(DETECTION_LANGUAGES).toContain(language);
  });

  it('calls no language for a text too short to tell (issue 21: "x" was uk, "Hi" de)', async () => {
    const reply = await detect(['x', 'Hi', 'Hello', 'hello world']);
    expect(reply.data.results).toEqual([
      { detection_status: 'insufficient_confidence' },
      { detection_status: 'insufficient_confidence' },
      { detection_status: 'insufficient_confidence' },
      { detection_status: 'insufficient_confidence' },
    ]);
  });

  it('answers unsupported_language for a language outside the 33, never its neighbour (issue 21)', async () => {
    // Persian was ar, Croatian sl, Afrikaans nl and Esperanto es; Galician and Catalan are outside the 33 too.
    const reply = await detect([
      'من امروز به مدرسه رفتم و کتاب خواندم.',
      'Hvala vam puno na pomoći, vidimo se sutra.',
      'Ek is baie moeg vandag en wil slaap.',
      'Mi estas studento kaj mi loĝas en la urbo.',
      'Non sei se a xente vai vir hoxe á festa.',
      'Avui fa molt de sol i anirem a la platja.',
    ]);
    expect(reply.data.results).toEqual(Array(6).fill({ detection_status: 'unsupported_language' }));
  });

  it('ignores URLs and e-mail addresses, which carry no language', async () => {
    const reply = await detect(['https://example.com/a/b?c=d mail@example.org']);
    expect(reply.data.results).toEqual([{ detection_status: 'no_language_detected' }]);
  });

  it('accepts a form body with repeated text fields', async () => {
    const reply = await t.call('/v3/detect/language', {
      form: [
        ['text', 'Buenos días a todos, ¿cómo estáis?'],
        ['text', 'Dziękuję za szybką odpowiedź!'],
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.data.results).toEqual([
      { detection_status: 'success', detected_language: 'es' },
      { detection_status: 'success', detected_language: 'pl' },
    ]);
  });

  it(`takes ${MAX_DETECT_TEXTS} texts and refuses ${MAX_DETECT_TEXTS + 1}`, async () => {
    const ok = await detect(Array(MAX_DETECT_TEXTS).fill('Where is the nearest train station?'));
    expect(ok.status).toBe(200);
    expect(ok.data.results).toHaveLength(MAX_DETECT_TEXTS);
    const over = await detect(Array(MAX_DETECT_TEXTS + 1).fill('hello world'));
    expect(over.status).toBe(400);
    expect(over.data).toEqual({
      message: "Parameter 'text' has too many items (at most 50).",
      code: 'invalid_request',
    });
  });

  it('answers 400 for a missing or empty text and for a text that is not a string', async () => {
    const missing = await t.call('/v3/detect/language', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.data.message).toBe("Missing required parameter 'text'.");
    expect((await detect([])).status).toBe(400);
    expect((await detect([42])).status).toBe(400);
  });

  it('answers 415 for another media type', async () => {
    const reply = await t.call('/v3/detect/language', {
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(reply.status).toBe(415);
    expect(reply.data.code).toBe('invalid_content_type');
  });

  it('is a beta: 403 for an account not enrolled, 200 once enrolled', async () => {
    const plain = await t.server.createAccount({ plan: 'paid' });
    const denied = await detect(['Hallo Welt, wie geht es dir?'], { key: plain.key });
    expect(denied.status).toBe(403);
    expect(denied.data).toEqual({
      message: 'Access denied: language detection needs enrollment in the beta program.',
      code: 'feature_not_enabled',
    });
    const enrolled = await t.server.createAccount({ plan: 'paid', detectionBeta: true });
    expect((await detect(['Hallo Welt, wie geht es dir?'], { key: enrolled.key })).status).toBe(200);
    const freeEnrolled = await t.server.createAccount({ plan: 'free', detectionBeta: true });
    expect((await detect(['Hallo Welt'], { key: freeEnrolled.key, base: t.server.freeUrl })).status).toBe(
      200,
    );
  });

  it('answers 403 without a key', async () => {
    expect((await detect(['Hallo'], { key: null })).status).toBe(403);
  });
});
