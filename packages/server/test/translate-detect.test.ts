/**
 * Issue 21, item 2: a text whose detected source has no engine to the target is refused (400, billed
 * nothing), never returned untranslated under another language's name. Engines: the Apertium pairs the
 * Debian packages install (eng-spa, fr-es, pt-es, ita-spa, cat-eng, ...: no German, no Catalan or Galician
 * to Spanish).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const used = async () => (await t.call('/v2/usage')).data.character_count as number;

describe('translate without source_lang: no silent non-translations', () => {
  it.each([
    ['German', 'Die Regierung hat gestern ein neues Gesetz verabschiedet.', 'DE'],
    ['Catalan', 'El govern ha aprovat una nova llei aquesta setmana.', 'CA'],
    ['Galician', 'Non sei se a xente vai vir hoxe á festa.', 'GL'],
    ['Chinese', '政府昨天通过了一项新法律。', 'ZH'],
  ])('%s to ES is a 400 naming the detected language, billed nothing', async (_, text, code) => {
    const before = await used();
    const reply = await t.translate({ text: [text], target_lang: 'ES', show_billed_characters: true });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe(
      `Language pair ${code} → ES is not supported by this server's engines (text[0] was detected as ${code}); send 'source_lang' if that is wrong.`,
    );
    expect(await used()).toBe(before);
  });

  // Debian catalogue messages the detector alone puts on English: the English analyser knows few of their words.
  it.each([
    ['Polish', 'przetwarzaj pliki binarne jako tekst'],
    ['Estonian', 'vigane sufiks, sisaldab kataloogi eraldajat'],
    ['Hungarian', 'rekord kiírva, hiányzó fájllal.'],
  ])(
    "%s put on English by the detector is refused by the engine's vocabulary, billed nothing",
    async (_, text) => {
      const before = await used();
      const reply = await t.translate({ text: [text], target_lang: 'ES' });
      expect(reply.status, JSON.stringify(reply.data)).toBe(400);
      expect(reply.data.message).toBe(
        "Could not detect the source language of text[0] among the languages that translate into ES; send 'source_lang'.",
      );
      expect(await used()).toBe(before);
      // Named, the source is taken at its word.
      expect((await t.translate({ text: [text], source_lang: 'EN', target_lang: 'ES' })).status).toBe(200);
    },
  );

  it('English with words the engine does not know still translates when most words are known', async () => {
    const reply = await t.translate({
      text: ['Looking for referenced packfiles', 'The packfile index is written to the repository.'],
      target_lang: 'ES',
    });
    expect(reply.status, JSON.stringify(reply.data)).toBe(200);
  });

  it('one undetectable text refuses the whole request before anything is billed', async () => {
    const before = await used();
    const reply = await t.translate({
      text: ['The house is big.', 'Die Regierung hat gestern ein neues Gesetz verabschiedet.'],
      target_lang: 'ES',
    });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toContain('text[1] was detected as DE');
    expect(await used()).toBe(before);
  });

  it('Portuguese, Italian, French and English texts still reach Spanish, each detected as itself', async () => {
    const reply = await t.translate({
      text: [
        'O governo aprovou ontem uma nova lei sobre a educação.',
        'Il governo ha approvato ieri una nuova legge sulla scuola.',
        'Le gouvernement a adopté hier une nouvelle loi sur l’école.',
        'The government passed a new law about schools yesterday.',
        'Hi',
      ],
      target_lang: 'ES',
    });
    expect(reply.status).toBe(200);
    expect(
      reply.data.translations.map((x: { detected_source_language: string }) => x.detected_source_language),
    ).toEqual(['PT', 'IT', 'FR', 'EN', 'EN']);
  });

  it('a source_lang the engines cannot translate is the same 400', async () => {
    const reply = await t.translate({ text: ['Hallo Welt'], target_lang: 'ES', source_lang: 'DE' });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe("Language pair DE → ES is not supported by this server's engines.");
  });
});
