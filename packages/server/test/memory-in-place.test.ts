/**
 * Issue 21, item 1: a fuzzy memory match is also used when what differs is a glossary term or a word the
 * engine translates in place (its translations of the memory's source and of the request differ only in
 * words the memory's target has exactly once); negation, numbers and names never come from the memory
 * where the request differs. Tagged (inline-code) matches follow the same rules. Units written for this
 * test; the engine is Apertium's eng-spa (Debian's apertium-eng-spa).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryOver, needsEngine } from '../src/memories/carry-over.js';
import { startTestServer, type TestServer } from './helpers.js';
import { importTmx, tmx } from './memory-helpers.js';

let t: TestServer;
let memory: string;
let glossary: string;
const b = (text: string) => `<bpt i="1">&lt;b&gt;</bpt>${text}<ept i="1">&lt;/b&gt;</ept>`;
const UNITS = [
  ['The cat is black.', 'El gato es negro.'],
  ['The house is small.', 'La casa es pequeña.'],
  ['I saw a big dog yesterday.', 'Ayer vi un perrazo.'],
  ['Open the file before the meeting.', 'Abra el archivo antes de la reunión.'],
  [`Open the ${b('red')} window now.`, `Abra la ventana ${b('roja')} ahora.`],
  ['My brother likes the old house.', 'A mi hermano le gusta la casa vieja.'],
  ['I bought three apples for Tom.', 'Compré tres manzanas para Tom.'],
  ['The black cat lives in London now.', 'El gato negro vive ahora en Londres.'],
] as const;

beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
  const job = await importTmx(t, tmx(UNITS), 'in-place');
  memory = job.result.translation_memory_id;
  glossary = await t.glossary('en', 'es', 'file\tarchivo\nfolder\tcarpeta');
});
afterAll(() => t.close());

async function translate(text: string, extra: Record<string, unknown> = {}) {
  const body = { text: [text], source_lang: 'EN', target_lang: 'ES', ...extra };
  const reply = await t.translate({
    ...body,
    translation_memory_id: memory,
    show_translation_memory_matches: true,
  });
  expect(reply.status, JSON.stringify(reply.data)).toBe(200);
  const engine = await t.translate(body);
  const translation = reply.data.translations[0];
  return {
    text: translation.text as string,
    engine: engine.data.translations[0].text as string,
    scores: translation.customizations.translation_memory_matches.map(
      (match: { match_score: number }) => match.match_score,
    ) as number[],
  };
}

describe('words the engine translates in place', () => {
  it("a replaced word is carried into the memory's target, with the agreement the engine shows", async () => {
    const dog = await translate('The dog is black.');
    expect(dog.scores).toEqual([80]);
    expect(dog.text).toBe('El perro es negro.');
    // The engine changes the article and the adjective too; the memory's target has each exactly once.
    const car = await translate('The car is small.');
    expect(car.text).toBe('El coche es pequeño.');
    // The memory's own wording is kept around the carried word ("A mi hermano", not the engine's "A Mi").
    const sister = await translate('My sister likes the old house.');
    expect(sister.engine).toBe('A Mi hermana le gusta la casa vieja.');
    expect(sister.text).toBe('A mi hermana le gusta la casa vieja.');
    const fresh = await translate('My brother likes the new house.');
    expect(fresh.text).toBe('A mi hermano le gusta la casa nueva.');
  });

  it("a word the memory's target does not show word for word: the engine translates", async () => {
    const cat = await translate('I saw a big cat yesterday.');
    expect(cat.scores).toEqual([85]);
    expect(cat.text).toBe(cat.engine);
    expect(cat.text).not.toContain('perrazo');
  });

  it('a glossary term is carried (the engine translates it with the glossary)', async () => {
    const folder = await translate('Open the folder before the meeting.', { glossary_id: glossary });
    expect(folder.scores).toEqual([85]);
    expect(folder.engine).toBe('Abierto la carpeta antes de la reunión.');
    expect(folder.text).toBe('Abra la carpeta antes de la reunión.');
    // Without the glossary the engine reads "file" as `lima`, which the memory's target lacks: engine.
    const plain = await translate('Open the folder before the meeting.');
    expect(plain.text).toBe(plain.engine);
  });

  it('negation, numbers and names never come from the memory where the request differs', async () => {
    const negated = await translate('The cat is not black.');
    expect(negated.scores.length).toBe(1);
    expect(negated.text).toBe(negated.engine);
    expect(negated.text).toMatch(/\bno\b/);
    const four = await translate('I bought four apples for Tom.');
    expect(four.scores.length).toBe(1);
    expect(four.text).not.toContain('tres');
    const mary = await translate('I bought three apples for Mary.');
    expect(mary.text).toBe('Compré tres manzanas para Mary.');
    // A name the memory's target writes otherwise ("Londres") never stays beside a carried word (here the
    // engine reads the request otherwise, "Las vidas de gato…", so nothing can be carried: engine).
    const paris = await translate('The white cat lives in Paris now.');
    expect(paris.scores).toEqual([75]);
    expect(paris.text).not.toContain('Londres');
    expect(paris.text).toBe(paris.engine);
  });

  it('a tagged match follows the same rules: the word inside the code is carried, codes stay', async () => {
    const green = await translate('Open the <b>green</b> window now.', { tag_handling: 'html' });
    expect(green.scores).toEqual([87]);
    expect(green.engine).toBe('Abierto la ventana <b>verde</b> ahora.');
    expect(green.text).toBe('Abra la ventana <b>verde</b> ahora.');
    const negated = await translate('Do not open the <b>red</b> window now.', { tag_handling: 'html' });
    expect(negated.text).toBe(negated.engine);
  });
});

describe('carryOver with the engine', () => {
  it('asks for the engine only for replaced words that are not negation or numbers', () => {
    expect(needsEngine('The dog is black.', 'The cat is black.', 'El gato es negro.')).toBe(true);
    expect(needsEngine('The cat is not black.', 'The cat is black.', 'El gato es negro.')).toBe(false);
    expect(needsEngine('I have four cats.', 'I have three cats.', 'Tengo tres gatos.')).toBe(false);
    expect(needsEngine('I have no cats.', 'I have two cats.', 'Tengo dos gatos.')).toBe(false);
    expect(
      carryOver('I live in Paris.', 'I live in London.', 'Vivo en Londres.', {
        source: 'Vivo en Londres.',
        request: 'Vivo en París.',
      }),
    ).toBe('Vivo en París.');
    // The engine's old name is not in the memory's target: nothing is carried.
    expect(
      carryOver('I live in Paris.', 'I live in London.', 'Vivo en la capital.', {
        source: 'Vivo en Londres.',
        request: 'Vivo en París.',
      }),
    ).toBeUndefined();
    expect(
      carryOver('The dog is black.', 'The cat is black.', 'El gato es negro.', {
        source: 'El gato es negro.',
        request: 'El perro es negro.',
      }),
    ).toBe('El perro es negro.');
    // The engine's changed word is not in the memory's target exactly once: no carry.
    expect(
      carryOver('The dog saw the cat.', 'The cat saw the cat.', 'El gato vio al gato.', {
        source: 'El gato vio el gato.',
        request: 'El perro vio el gato.',
      }),
    ).toBeUndefined();
  });
});
