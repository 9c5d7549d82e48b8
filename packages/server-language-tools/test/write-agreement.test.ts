/**
 * A correction agrees with the sentence or is left out (issue 33, item 4): learner errors whose nearest
 * dictionary word is of the wrong kind for its place. German "wunderware" (meant "wunderbare") between an
 * article and a noun is an adjective's place, not the noun "Wunderware"; French "musé" after a determiner is
 * the noun "musée" misspelled, not the participle made plural ("musés") or an infinitive ("muser").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const correct = async (text: string, target_lang: string) => {
  const reply = await t.call('/v2/write/correct', { json: { text: [text], target_lang } });
  expect(reply.status).toBe(200);
  return reply.data.improvements[0].text as string;
};

describe('corrections agree with the sentence or are left out', () => {
  it('German: no noun made between an article and a noun', { timeout: 120_000 }, async () => {
    expect(await correct('Das war eine wunderware Reise.', 'de')).toBe('Das war eine wunderware Reise.');
    expect(await correct('Wir hatten eine wunderware Zeit in Berlin.', 'de')).toBe(
      'Wir hatten eine wunderware Zeit in Berlin.',
    );
    // A noun after an article is still capitalized where no noun follows.
    expect(await correct('Ich spreche mit meinem beruf.', 'de')).toBe('Ich spreche mit meinem Beruf.');
  });

  it('French: "musé" after a determiner is not made a plural participle or an infinitive', async () => {
    expect(await correct('Nous avons visité les musé de Paris.', 'fr')).toBe(
      'Nous avons visité les musé de Paris.',
    );
    expect(await correct('Il y a beaucoup de musé dans cette ville.', 'fr')).toBe(
      'Il y a beaucoup de musé dans cette ville.',
    );
    // Agreement of a real participle is still fixed.
    expect(await correct('Les chat mange.', 'fr')).toBe('Les chats mangent.');
  });
});
