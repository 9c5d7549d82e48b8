/**
 * Inline codes through a pivot (en→fr through Spanish, real Apertium): each code stays on the words it was
 * on through both legs. Apertium's es→fr transfer joins the word-bound blanks of a chunk into one unit
 * ("al servidor" → "au serveur."), which spread a code over the next word and the full stop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApertiumEngine, createApertiumEngine } from '../src/engines/apertium.js';

let engine: ApertiumEngine;
beforeAll(() => {
  engine = createApertiumEngine();
});
afterAll(() => engine.close());

const translate = async (text: string, target = 'fr') => {
  const [out] = await engine.translate({
    texts: [text],
    source: 'en',
    target,
    markup: true,
    formality: 'default',
  });
  return out;
};

describe('codes through a pivot', () => {
  it('a code on two words stays on their two translations, not on the words the second leg joins to them', async () => {
    expect(await translate('The file could not be <g id="1">uploaded to</g> the server.')).toBe(
      'La lime ne pourrait pas être <g id="1">chargée au</g> serveur.',
    );
    expect(await translate('My <g id="1">younger brother</g> lives in a big house.')).toMatch(
      /^Mes vies de <g id="1">frère plus<\/g> jeunes /,
    );
  });

  it('the text is the same with and without codes, and a direct pair is unchanged', async () => {
    const plain = await translate('The file could not be uploaded to the server.');
    expect(plain).toBe('La lime ne pourrait pas être chargée au serveur.');
    expect(await translate('We sell <g id="1">fresh bread</g> and cheese every day.')).toBe(
      'Nous vendons fromage et <g id="1">du pain frais</g> tous les jours.',
    );
    expect(await translate('The file could not be <g id="1">uploaded to</g> the server.', 'es')).toBe(
      'La lima no podría ser <g id="1">cargada al</g> servidor.',
    );
  });
});
