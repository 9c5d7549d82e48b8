/**
 * Issue 21, item 1: a fuzzy memory match is used only when what differs can be carried into its target;
 * otherwise the engine translates and the match is still reported. The units are Tatoeba sentence pairs
 * (CC BY 2.0 FR) quoted in the issue; the engine is Apertium's eng-spa.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryOver } from '../src/memories/carry-over.js';
import { startTestServer, type TestServer } from './helpers.js';
import { importTmx, tmx } from './memory-helpers.js';

let t: TestServer;
let memory: string;
const UNITS = [
  ['Tom was in jail at the time.', 'En ese tiempo Tom estaba encarcelado.'],
  ['I bought it for three hundred dollars.', 'Lo compré por trescientos dólares.'],
  ['Tom was born in Yugoslavia.', 'Tom nació en Yugoslavia.'],
  ['The meeting starts at 10 a.m. in room 204.', 'La reunión empieza a las 10 a. m. en la sala 204.'],
] as const;

beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
  const job = await importTmx(t, tmx(UNITS), 'tatoeba');
  memory = job.result.translation_memory_id;
});
afterAll(() => t.close());

const translate = async (text: string) => {
  const reply = await t.translate({
    text: [text],
    source_lang: 'EN',
    target_lang: 'ES',
    translation_memory_id: memory,
    show_translation_memory_matches: true,
  });
  expect(reply.status).toBe(200);
  const translation = reply.data.translations[0];
  return {
    text: translation.text as string,
    scores: translation.customizations.translation_memory_matches.map(
      (m: { match_score: number }) => m.match_score,
    ),
  };
};

describe('fuzzy memory matches', () => {
  it('a negation the memory lacks: the engine translates, the match is still reported', async () => {
    const reply = await translate('Tom was not in jail at the time.');
    expect(reply.text).not.toBe('En ese tiempo Tom estaba encarcelado.');
    expect(reply.text).toMatch(/\bno\b/i);
    expect(reply.scores).toEqual([88]);
  });

  it('a number written in words that differs: the engine translates', async () => {
    const reply = await translate('I bought it for four hundred dollars.');
    expect(reply.text).not.toContain('trescientos');
    expect(reply.scores.length).toBe(1);
  });

  it('a different name is carried into the memory’s target', async () => {
    const reply = await translate('Tom was born in Albania.');
    expect(reply.text).toBe('Tom nació en Albania.');
    expect(reply.scores.length).toBe(1);
  });

  it('a different number in digits is carried', async () => {
    const reply = await translate('The meeting starts at 10 a.m. in room 305.');
    expect(reply.text).toBe('La reunión empieza a las 10 a. m. en la sala 305.');
  });
});

describe('carryOver', () => {
  it('refuses any difference it cannot carry, accepts names, numbers and punctuation', () => {
    expect(carryOver('Tom was not in jail.', 'Tom was in jail.', 'Tom estaba en la cárcel.')).toBeUndefined();
    expect(carryOver('Mary was in jail.', 'Tom was in jail.', 'Tom estaba en la cárcel.')).toBe(
      'Mary estaba en la cárcel.',
    );
    expect(carryOver('It costs 5 euros!', 'It costs 4 euros.', 'Cuesta 4 euros.')).toBe('Cuesta 5 euros!');
    expect(carryOver('The big house.', 'The small house.', 'La casa pequeña.')).toBeUndefined();
  });
});
