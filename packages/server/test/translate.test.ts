import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codePoints, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const first = (reply: { data: { translations: { text: string }[] } }) => reply.data.translations[0]!;
const message = async (body: unknown) => {
  const reply = await t.translate(body);
  return `${reply.status} ${reply.data.message}`;
};
const UUID = (n: number) => `0b7e5f5a-0000-4000-8000-00000000000${n}`;

describe('translate: real engines', () => {
  it('en→es with Apertium, JSON and form, language codes case-insensitive, v2 codes upper case', async () => {
    const reply = await t.translate({
      text: ['Hello world', 'The house is big.'],
      target_lang: 'es',
      source_lang: 'en',
    });
    expect(reply.status).toBe(200);
    expect(reply.data.translations).toEqual([
      { detected_source_language: 'EN', text: 'Hola Mundial' },
      { detected_source_language: 'EN', text: 'La casa es grande.' },
    ]);
  });

  it('detects the source per text when source_lang is absent', async () => {
    const reply = await t.translate({
      text: ['The dog is big and the house is small.', 'El perro es grande y la casa es pequeña.'],
      target_lang: 'FR',
    });
    expect(reply.status).toBe(200);
    expect(
      reply.data.translations.map((x: { detected_source_language: string }) => x.detected_source_language),
    ).toEqual(['EN', 'ES']);
  });

  it('a regional source is read as its language; a regional target is served by its language', async () => {
    const regional = await t.translate({
      text: ['The house is big.'],
      target_lang: 'es',
      source_lang: 'en-us',
    });
    expect(regional.data.translations[0]).toEqual({
      detected_source_language: 'EN',
      text: 'La casa es grande.',
    });
    const unknown = await t.translate({
      text: ['La casa es grande.'],
      target_lang: 'EN-GB',
      source_lang: 'es-MX',
    });
    expect(unknown.data.message).toBe("Value for 'source_lang' not supported: 'es-MX'.");
    const good = await t.translate({ text: ['The house is big.'], target_lang: 'PT-BR', source_lang: 'EN' });
    expect(good.status).toBe(200);
    expect(good.data.translations[0].detected_source_language).toBe('EN');
    const us = await t.translate({ text: ['La casa es grande.'], target_lang: 'EN-US', source_lang: 'ES' });
    expect(us.data.translations[0]).toEqual({ detected_source_language: 'ES', text: 'The house is big.' });
  });

  it('a pseudo-locale target uses the pseudo engine', async () => {
    const text = first(
      await t.translate({ text: ['Save now'], target_lang: 'en-XA', source_lang: 'EN' }),
    ).text;
    expect(text).not.toBe('Save now');
    expect(text.startsWith('[')).toBe(true);
  });

  it('an unknown language or a pair no engine serves is a 400 naming it', async () => {
    expect(await message({ text: ['x'], target_lang: 'xx' })).toBe(
      "400 Value for 'target_lang' not supported: 'xx'.",
    );
    expect(await message({ text: ['x'], target_lang: 'ES', source_lang: 'DE' })).toBe(
      "400 Language pair DE → ES is not supported by this server's engines.",
    );
    expect(await message({ text: ['x'], target_lang: 'JA' })).toBe(
      "400 Target language JA is not supported by this server's engines.",
    );
  });
});

describe('translate: parameters and their rules', () => {
  it('billed characters are code points per text, only with show_billed_characters', async () => {
    const texts = ['Hello wörld 日本', 'emoji 😀👍', ''];
    const reply = await t.translate({
      text: texts,
      target_lang: 'en-XA',
      source_lang: 'EN',
      show_billed_characters: true,
    });
    expect(reply.data.translations.map((x: { billed_characters: number }) => x.billed_characters)).toEqual(
      texts.map(codePoints),
    );
    expect(first(await t.translate({ text: ['Hi'], target_lang: 'en-XA' }))).not.toHaveProperty(
      'billed_characters',
    );
  });

  it('model_type_used reports the model used', async () => {
    const used = async (model_type: string) =>
      (await t.translate({ text: ['Hi'], target_lang: 'en-XA', model_type })).data.translations[0]
        .model_type_used;
    expect(await used('prefer_quality_optimized')).toBe('quality_optimized');
    expect(await used('quality_optimized')).toBe('quality_optimized');
    expect(await used('latency_optimized')).toBe('latency_optimized');
  });

  it('formality more/less fail for targets without formality; prefer_* fall back', async () => {
    expect(await message({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', formality: 'more' })).toBe(
      "400 'formality' is not supported for target language ES; use 'prefer_more' to fall back to the default.",
    );
    expect(
      (await t.translate({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', formality: 'less' })).status,
    ).toBe(400);
    expect(
      (await t.translate({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', formality: 'prefer_more' }))
        .status,
    ).toBe(200);
    expect(
      (await t.translate({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', formality: 'default' }))
        .status,
    ).toBe(200);
    expect((await t.translate({ text: ['Hi'], target_lang: 'ES', formality: 'formal' })).status).toBe(400);
  });

  it('glossaries: ids need source_lang, are exclusive, at most 5, must exist in the account', async () => {
    expect(await message({ text: ['Hi'], target_lang: 'ES', glossary_ids: [UUID(1)] })).toBe(
      "400 'source_lang' is required when a glossary is used.",
    );
    expect(await message({ text: ['Hi'], target_lang: 'ES', glossary_id: UUID(1) })).toBe(
      "400 'source_lang' is required when a glossary is used.",
    );
    expect(
      await message({
        text: ['Hi'],
        target_lang: 'ES',
        source_lang: 'EN',
        glossary_id: UUID(1),
        glossary_ids: [UUID(2)],
      }),
    ).toBe("400 Use either 'glossary_id' or 'glossary_ids', not both.");
    expect(
      await message({
        text: ['Hi'],
        target_lang: 'ES',
        source_lang: 'EN',
        glossary_ids: [1, 2, 3, 4, 5, 6].map(UUID),
      }),
    ).toBe("400 Parameter 'glossary_ids' has too many items (at most 5).");
    expect(
      await message({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', glossary_ids: ['not-a-uuid'] }),
    ).toMatch(/^400 .*glossary_ids\[0\]/);
    expect(
      await message({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', glossary_ids: [UUID(1)] }),
    ).toBe(`404 Glossary '${UUID(1)}' not found.`);
  });

  it('translation memory and style list ids are checked; a missing one is a 404', async () => {
    expect(
      await message({
        text: ['Hi'],
        target_lang: 'ES',
        source_lang: 'EN',
        translation_memory_id: UUID(9),
        translation_memory_threshold: 101,
      }),
    ).toBe("400 Parameter 'translation_memory_threshold' must be between 0 and 100.");
    expect(
      await message({ text: ['Hi'], target_lang: 'ES', source_lang: 'EN', translation_memory_id: UUID(9) }),
    ).toBe(`404 Translation memory '${UUID(9)}' not found.`);
    expect(await message({ text: ['Hi'], target_lang: 'ES', style_id: UUID(8) })).toBe(
      `404 Style rule list '${UUID(8)}' not found.`,
    );
    expect(await message({ text: ['Hi'], target_lang: 'ES', show_translation_memory_matches: true })).toBe(
      "400 'show_translation_memory_matches' requires 'translation_memory_id'.",
    );
  });

  it('memory matches need an account with the option', async () => {
    const plain = await t.server.createAccount({ plan: 'paid' });
    const reply = await t.translate(
      {
        text: ['Hi'],
        target_lang: 'ES',
        source_lang: 'EN',
        translation_memory_id: UUID(9),
        show_translation_memory_matches: true,
      },
      { key: plain.key },
    );
    expect(`${reply.status} ${reply.data.message}`).toBe(
      "400 'show_translation_memory_matches' is not available for this account.",
    );
  });

  it('custom_instructions: at most 10 of at most 300 characters, only for their target languages', async () => {
    expect(
      await message({ text: ['Hi'], target_lang: 'ES', custom_instructions: Array(11).fill('Be brief') }),
    ).toBe("400 Parameter 'custom_instructions' has too many items (at most 10).");
    expect(await message({ text: ['Hi'], target_lang: 'ES', custom_instructions: ['x'.repeat(301)] })).toBe(
      "400 Parameter 'custom_instructions[0]' is too long (at most 300 characters).",
    );
    expect(
      (
        await t.translate({
          text: ['Hi'],
          target_lang: 'ES',
          source_lang: 'EN',
          custom_instructions: ['x'.repeat(300)],
        })
      ).status,
    ).toBe(200);
    expect(
      await message({
        text: ['Hi'],
        target_lang: 'CA',
        source_lang: 'EN',
        custom_instructions: ['Be brief'],
      }),
    ).toBe(
      "400 'custom_instructions' are not supported for target language CA (supported: de, en, es, fr, it, ja, ko, zh and their variants).",
    );
  });

  it('context is accepted and not translated; outline_detection is accepted', async () => {
    const reply = await t.translate({
      text: ['Hi'],
      target_lang: 'en-XA',
      source_lang: 'EN',
      context: 'A greeting',
      outline_detection: false,
      tag_handling: 'xml',
    });
    expect(reply.status).toBe(200);
    expect(first(reply).text).not.toContain('greeting');
  });

  it('the reporting tag header is at most 100 printable ASCII characters', async () => {
    const tagged = (tag: string) =>
      t.translate({ text: ['Hi'], target_lang: 'en-XA' }, { headers: { 'x-service-reporting-tag': tag } });
    expect((await tagged('a'.repeat(101))).data.message).toBe(
      "Header 'X-Service-Reporting-Tag' is too long (at most 100 characters).",
    );
    expect((await tagged('two words')).status).toBe(400);
    expect((await tagged(' Team-A ')).status).toBe(200);
    expect((await tagged('a'.repeat(100))).status).toBe(200);
  });

  it('keeps request order over many texts', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `Item number ${i}`);
    const reply = await t.translate({ text: texts, target_lang: 'en-XA', source_lang: 'EN' });
    expect(reply.data.translations).toHaveLength(50);
    reply.data.translations.forEach((x: { text: string }, i: number) => {
      expect(x.text).toContain(String(i));
    });
  });
});
