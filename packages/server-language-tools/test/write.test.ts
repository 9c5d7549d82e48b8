import { MAX_WRITE_REQUEST_BYTES, WRITE_TARGET_LANGUAGES } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  // Loading Harper takes seconds on a busy machine: done here (hook timeout), not inside the first test.
  await t.call('/v2/write/correct', { json: { text: ['Warm up.'], target_lang: 'en-US' } });
});
afterAll(async () => {
  await t?.close();
});

const correct = (json: unknown, options = {}) => t.call('/v2/write/correct', { json, ...options });
const rephrase = (json: unknown, options = {}) => t.call('/v2/write/rephrase', { json, ...options });
const texts = (reply: { data: { improvements: { text: string }[] } }) =>
  reply.data.improvements.map((i) => i.text);

describe('POST /v2/write/correct', () => {
  it('fixes English grammar and spelling with Harper, in request order, with the detected language', async () => {
    const reply = await correct({
      text: [
        'This are a example of a sentence with a error.',
        'I recieved teh package yesterday and it were broken.',
        'Their going to the the store.',
      ],
      target_lang: 'en-US',
    });
    expect(reply.status).toBe(200);
    expect(reply.data).toEqual({
      improvements: [
        {
          text: 'This is an example of a sentence with an error.',
          detected_source_language: 'en',
          target_language: 'en-US',
        },
        {
          text: 'I received the package yesterday and it was broken.',
          detected_source_language: 'en',
          target_language: 'en-US',
        },
        { text: "They're going to the store.", detected_source_language: 'en', target_language: 'en-US' },
      ],
    });
  });

  it('keeps a correct sentence, a name and an acronym unchanged', async () => {
    const text = ['The quick brown fox jumps over the lazy dog.', 'Ask Zorblax at NASA about the report.'];
    expect(texts(await correct({ text, target_lang: 'en-US' }))).toEqual(text);
  });

  it('converts American to British spelling and back, by the two dictionaries', async () => {
    const toBritish = await correct({
      text: ['The color of the center is gray.', 'We analyzed the catalog.'],
      target_lang: 'EN-gb',
    });
    expect(texts(toBritish)).toEqual(['The colour of the centre is grey.', 'We analysed the catalogue.']);
    expect(toBritish.data.improvements[0].target_language).toBe('en-GB');
    const toAmerican = await correct({ text: ['The colour of the centre is grey.'], target_lang: 'en-US' });
    expect(texts(toAmerican)).toEqual(['The color of the center is gray.']);
  });

  it('fixes French grammar and spelling with Grammalecte', async () => {
    const reply = await correct({
      text: ['Les chat mange la souris. Il a manger une pomme. Elle est trés contente.'],
      target_lang: 'fr',
    });
    expect(reply.data.improvements).toEqual([
      {
        text: 'Les chats mangent la souris. Il a mangé une pomme. Elle est très contente.',
        detected_source_language: 'fr',
        target_language: 'fr',
      },
    ]);
  });

  it('fixes German, Spanish and Italian spelling with Hunspell, leaving ambiguous words alone', async () => {
    const german = await correct({
      text: ['Ich habe meinen Schirm vergesen und das Fenstr ist offen, Herr Müller.'],
      target_lang: 'de',
    });
    expect(texts(german)).toEqual([
      'Ich habe meinen Schirm vergessen und das Fenster ist offen, Herr Müller.',
    ]);
    const spanish = await correct({
      text: ['La reunion empieza a mediodia con el equipo de desarollo.'],
      target_lang: 'es',
    });
    expect(texts(spanish)).toEqual(['La reunión empieza a mediodía con el equipo de desarrollo.']);
    const italian = await correct({ text: ['Ho dimenticato l’ombrelo a casa.'], target_lang: 'it' });
    expect(texts(italian)).toEqual(['Ho dimenticato l’ombrello a casa.']);
  });

  it('converts Brazilian to European Portuguese spelling and everyday words, and back', async () => {
    const european = await correct({
      text: ['O ônibus econômico chegou à recepção com a equipe.'],
      target_lang: 'pt-PT',
    });
    expect(european.data.improvements).toEqual([
      {
        text: 'O autocarro económico chegou à receção com a equipa.',
        detected_source_language: 'pt',
        target_language: 'pt-PT',
      },
    ]);
    const brazilian = await correct({
      text: ['O autocarro económico chegou à receção com a equipa.'],
      target_lang: 'pt-BR',
    });
    expect(texts(brazilian)).toEqual(['O ônibus econômico chegou à recepção com a equipe.']);
    // A name is not a spelling of the other variant (UGCNormal: "Palo Santo" became "Paló Santo"); a sentence
    // start is still converted.
    const named = await correct({
      text: ['O perfume Palo Santo é económico. Económico e bom.'],
      target_lang: 'pt-BR',
    });
    expect(texts(named)).toEqual(['O perfume Palo Santo é econômico. Econômico e bom.']);
  });

  it('accepts a form-encoded body', async () => {
    const reply = await t.call('/v2/write/correct', {
      form: [
        ['text', 'He go to school.'],
        ['text', 'Fine.'],
        ['target_lang', 'en-US'],
      ],
    });
    expect(reply.status).toBe(200);
    expect(texts(reply)).toEqual(['He goes to school.', 'Fine.']);
  });

  it('rejects writing_style and tone on correct (corrections only)', async () => {
    const reply = await correct({ text: ['Hi'], target_lang: 'en-US', writing_style: 'business' });
    expect(reply.status).toBe(400);
    expect(reply.data).toEqual({ message: "Unknown parameter 'writing_style'.", code: 'invalid_request' });
  });
});

describe('POST /v2/write/rephrase', () => {
  const sample =
    "We don't think it's ready. I think maybe we can basically get it done ASAP, but it's kind of hard. Thanks!";
  const cases: [string, Record<string, string>, string][] = [
    ['no style', {}, sample],
    [
      'academic',
      { writing_style: 'academic' },
      'We do not think it is ready. I think maybe we can get it done ASAP, but it is hard. Thanks!',
    ],
    [
      'business',
      { writing_style: 'business' },
      "We don't think it's ready. Maybe we can get it done as soon as possible, but it's hard. Thank you!",
    ],
    [
      'prefer_business',
      { writing_style: 'prefer_business' },
      "We don't think it's ready. Maybe we can get it done as soon as possible, but it's hard. Thank you!",
    ],
    ['casual', { writing_style: 'casual' }, "Hi, I'm happy we don't need it. So, we'll use it."],
    ['simple', { writing_style: 'simple' }, 'We will use about ten more boxes to start.'],
    [
      'confident',
      { tone: 'confident' },
      "We don't think it's ready. We can basically get it done ASAP, but it's hard. Thanks!",
    ],
    ['diplomatic', { tone: 'diplomatic' }, 'You may want to send the report. This may not be quite right.'],
    ['enthusiastic', { tone: 'enthusiastic' }, 'I am delighted we do not need it. It is great!'],
    ['friendly', { tone: 'friendly' }, "Hi, I'm sure we don't need it. Thanks so much."],
  ];
  const inputs: Record<string, string> = {
    casual: 'Hello, I am happy we do not need it. Therefore we will utilize it.',
    simple: 'We will utilize approximately ten additional boxes in order to commence.',
    diplomatic: 'You must send the report. This is wrong.',
    enthusiastic: 'I am happy we do not need it. It is good.',
    friendly: 'Hello, I am sure we do not need it. Thank you.',
  };
  for (const [name, options, expected] of cases) {
    it(`rewrites deterministically: ${name}`, async () => {
      const input = inputs[name] ?? sample;
      const reply = await rephrase({ text: [input], target_lang: 'en-US', ...options });
      expect(reply.status).toBe(200);
      expect(texts(reply)).toEqual([expected]);
    });
  }

  it('corrects before rewriting', async () => {
    const reply = await rephrase({
      text: ["This are a example. We don't know."],
      target_lang: 'en-GB',
      writing_style: 'academic',
    });
    expect(texts(reply)).toEqual(['This is an example. We do not know.']);
  });

  it('refuses writing_style and tone together', async () => {
    const reply = await rephrase({
      text: ['Hi there'],
      target_lang: 'en-US',
      writing_style: 'business',
      tone: 'friendly',
    });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe(
      'Both writing_style and tone defined, currently only one of them can be used at a time.',
    );
    for (const [writing_style, tone] of [
      ['default', 'friendly'],
      ['business', 'default'],
    ]) {
      const accepted = await rephrase({ text: ['Hi there'], target_lang: 'en-US', writing_style, tone });
      expect(accepted.status).toBe(200);
    }
  });

  it('falls back for prefer_ values where styles are unsupported, and refuses the plain value', async () => {
    const fallback = await rephrase({
      text: ['Elle est trés contente.'],
      target_lang: 'fr',
      tone: 'prefer_friendly',
    });
    expect(fallback.status).toBe(200);
    expect(texts(fallback)).toEqual(['Elle est très contente.']);
    const refused = await rephrase({ text: ['Elle est contente.'], target_lang: 'fr', tone: 'friendly' });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe(
      "Language fr does not support setting a tone ('tone': 'friendly'). Use a 'prefer_' value to fall back.",
    );
  });

  it('a style or tone for a language without rewrites: the official client wording, engine or not', async () => {
    // deepl-node's tests match /Language ja does not support setting a tone/ and "... a writing style".
    const tone = await rephrase({ text: ['こんにちは。'], target_lang: 'ja', tone: 'confident' });
    expect(tone.status).toBe(400);
    expect(tone.data.message).toMatch(/^Language ja does not support setting a tone/);
    const style = await rephrase({ text: ['こんにちは。'], target_lang: 'ja', writing_style: 'business' });
    expect(style.status).toBe(400);
    expect(style.data.message).toMatch(/^Language ja does not support setting a writing style/);
    const german = await rephrase({ text: ['Das ist gut.'], target_lang: 'de', writing_style: 'academic' });
    expect(german.data.message).toMatch(/^Language de does not support setting a writing style/);
    // Without a style, Japanese is what this server cannot correct at all.
    const plain = await rephrase({ text: ['こんにちは。'], target_lang: 'ja' });
    expect(plain.status).toBe(400);
    expect(plain.data.message).toMatch(/^Value for 'target_lang' not supported by this server: 'ja'/);
  });

  it('refuses an unknown writing style', async () => {
    const reply = await rephrase({ text: ['Hi'], target_lang: 'en-US', writing_style: 'poetic' });
    expect(reply.status).toBe(400);
  });
});

describe('write rules', () => {
  it('is for paid plans only: 403 on the free plan', async () => {
    const free = await t.server.createAccount({ plan: 'free' });
    const reply = await correct(
      { text: ['Hi'], target_lang: 'en-US' },
      { key: free.key, base: t.server.freeUrl },
    );
    expect(reply.status).toBe(403);
    expect(reply.data.message).toBe('Access denied: this endpoint is available on paid plans only.');
  });

  it('takes a body of exactly 10 KiB and answers 413 one byte over', async () => {
    const body = (length: number) => {
      const shell = JSON.stringify({ text: [''], target_lang: 'en-US' });
      return JSON.stringify({
        text: ['The quick brown fox jumps over the lazy dog. '.repeat(300).slice(0, length - shell.length)],
        target_lang: 'en-US',
      });
    };
    expect(Buffer.byteLength(body(MAX_WRITE_REQUEST_BYTES))).toBe(MAX_WRITE_REQUEST_BYTES);
    const atLimit = await t.call('/v2/write/correct', {
      raw: body(MAX_WRITE_REQUEST_BYTES),
      headers: { 'content-type': 'application/json' },
    });
    expect(atLimit.status).toBe(200);
    const over = await t.call('/v2/write/correct', {
      raw: body(MAX_WRITE_REQUEST_BYTES + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status).toBe(413);
    expect(over.data.code).toBe('request_too_large');
  });

  it('refuses target languages outside the write list and those this server has no checker for', async () => {
    const unknown = await correct({ text: ['Hi'], target_lang: 'xx' });
    expect(unknown.status).toBe(400);
    const japanese = await correct({ text: ['こんにちは'], target_lang: 'ja' });
    expect(japanese.status).toBe(400);
    expect(japanese.data).toEqual({
      message:
        "Value for 'target_lang' not supported by this server: 'ja'. See GET /v3/languages?resource=write.",
      code: 'unsupported_language',
    });
  });

  it('refuses a text in another language than target_lang (no translation)', async () => {
    const reply = await correct({
      text: ['Das ist ein ganz normaler deutscher Satz über das Wetter.'],
      target_lang: 'en-US',
    });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe(
      "The text is in 'de' but target_lang is 'en-US': improving and translating in one request is not supported.",
    );
  });

  it("takes the dictionary's word for it where the detector reads a short sentence as a neighbour language", async () => {
    // Learner sentences (COWS-L2H) the detector calls Italian: every word is Spanish.
    for (const text of ['Tengo un familia grande.', 'Demi Lovato es una persona famosa.']) {
      const reply = await correct({ text: [text], target_lang: 'es' });
      expect(reply.status, text).toBe(200);
    }
    // Italian and Portuguese checked as Spanish: most words are unknown to the Spanish dictionary.
    for (const [text, detected] of [
      ['Il governo ha approvato una nuova legge ieri.', 'it'],
      ['O governo aprovou uma nova lei ontem à noite.', 'pt'],
    ]) {
      const reply = await correct({ text: [text], target_lang: 'es' });
      expect(reply.status, text).toBe(400);
      expect(reply.data.message).toContain(`The text is in '${detected}'`);
    }
  });

  it('counts code points in the same quota as translation, and answers 456 when it is used up', async () => {
    const account = await t.server.createAccount({ plan: 'paid', characterLimit: 30 });
    const count = async () => (await t.call('/v2/usage', { key: account.key })).data.character_count;
    const text = 'Ça va très bien 😀.';
    expect(await count()).toBe(0);
    const first = await correct({ text: [text], target_lang: 'fr' }, { key: account.key });
    expect(first.status).toBe(200);
    expect(await count()).toBe([...text].length);
    const second = await correct({ text: [text], target_lang: 'fr' }, { key: account.key });
    expect(second.status).toBe(456);
    expect(await count()).toBe([...text].length);
  });
});

describe('GET /v3/languages?resource=write', () => {
  it('lists a language exactly when correct accepts it, and a style exactly where rephrase applies one', {
    timeout: 120_000,
  }, async () => {
    const listed = (await t.call('/v3/languages?resource=write')).data as {
      lang: string;
      features: Record<string, unknown>;
    }[];
    for (const code of WRITE_TARGET_LANGUAGES) {
      const entry = listed.find((language) => language.lang === code);
      const corrected = await correct({ text: ['Ok.'], target_lang: code });
      expect(corrected.status, code).toBe(entry ? 200 : 400);
      if (!entry) continue;
      const styled = await rephrase({ text: ['Ok.'], target_lang: code, writing_style: 'business' });
      expect(styled.status, code).toBe('writing_style' in entry.features ? 200 : 400);
      const toned = await rephrase({ text: ['Ok.'], target_lang: code, tone: 'friendly' });
      expect(toned.status, code).toBe('tone' in entry.features ? 200 : 400);
    }
  });

  it('lists exactly the languages and features that work here', async () => {
    const reply = await t.call('/v3/languages?resource=write');
    expect(reply.status).toBe(200);
    const summary = reply.data.map((language: { lang: string; features: object }) => [
      language.lang,
      Object.keys(language.features),
    ]);
    expect(summary).toEqual([
      ['de', ['auto_detection']],
      ['en-GB', ['auto_detection', 'writing_style', 'tone']],
      ['en-US', ['auto_detection', 'writing_style', 'tone']],
      ['es', ['auto_detection']],
      ['fr', ['auto_detection']],
      ['it', ['auto_detection']],
      ['pt-BR', ['auto_detection']],
      ['pt-PT', ['auto_detection']],
    ]);
  });
});
