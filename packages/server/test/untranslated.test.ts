/**
 * A text Apertium returns unchanged because it does not know an ordinary English word is reported as kept in
 * the source language (X-Glossa-Kept-Source), unlike a name or a word the pair translates to itself.
 * Real Apertium (eng-spa) and a real server over HTTP.
 */
import {
  formatLeftWords,
  KEPT_SOURCE_HEADER,
  LEFT_WORDS_HEADER,
  MAX_LEFT_WORDS_HEADER,
  parseKeptSource,
} from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApertiumEngine } from '../src/engines/apertium.js';
import type { KeptSource } from '../src/engines/chain.js';
import type { EngineInput } from '../src/engines/engine.js';
import { startTestServer, type TestServer } from './helpers.js';

describe('untranslated words', () => {
  let server: TestServer;
  const kept: KeptSource[] = [];

  beforeAll(async () => {
    server = await startTestServer({ onKeptSource: (event) => kept.push(event) });
  });
  afterAll(() => server?.close());

  it('names "Budgeted" and "Admin", not "GitHub", "Excalidraw", "navbar" or "Error" (Spanish "Error")', async () => {
    const text = [
      'Budgeted',
      'GitHub',
      'Excalidraw',
      'navbar',
      'Error',
      'Open the <b>Admin</b> page',
      'Admin',
    ];
    const reply = await server.translate({
      text,
      source_lang: 'EN',
      target_lang: 'ES',
      tag_handling: 'html',
    });
    expect(reply.status).toBe(200);
    const outputs = reply.data.translations.map((t: { text: string }) => t.text);
    // The texts are answered as before: kept as they are, or translated.
    expect(outputs.slice(0, 5)).toEqual(['Budgeted', 'GitHub', 'Excalidraw', 'navbar', 'Error']);
    expect(outputs[5]).not.toBe(text[5]);
    expect(parseKeptSource(reply.headers.get(KEPT_SOURCE_HEADER))).toEqual([0, 6]);
    expect(kept.map((event) => event.text).sort()).toEqual(['Admin', 'Budgeted']);
    expect(kept[0]!.attempts[0]!.engine).toBe('apertium');
    expect(kept.find((event) => event.text === 'Budgeted')!.attempts[0]!.problems).toEqual([
      `came back unchanged: "Budgeted" is not in the engine's dictionary (a name or a term kept on purpose goes in doNotTranslate)`,
    ]);
  });

  // Per source language: two texts Apertium returns unchanged, the index of the ordinary word among them.
  it.each([
    {
      dictionary: 'dictionary-es (npm)',
      source: 'ES',
      target: 'PT',
      text: ['Categorizar', 'GitHub'],
      word: 0,
    },
    {
      dictionary: 'dictionary-fr (npm)',
      source: 'FR',
      target: 'ES',
      text: ['Excalidraw', 'Réessayer'],
      word: 1,
    },
    {
      dictionary: "Debian's hunspell-ca",
      source: 'CA',
      target: 'EN',
      text: ['Pressupostat', 'GitHub'],
      word: 0,
    },
    {
      dictionary: "Debian's hunspell-pt-pt",
      source: 'PT',
      target: 'ES',
      text: ['Excalidraw', 'Orçamentado'],
      word: 1,
    },
  ])(
    'a $source source is judged with $dictionary',
    async ({ source, target, text, word }) => {
      kept.length = 0;
      const reply = await server.translate({ text, source_lang: source, target_lang: target });
      expect(reply.status).toBe(200);
      expect(reply.data.translations.map((t: { text: string }) => t.text)).toEqual(text);
      expect(parseKeptSource(reply.headers.get(KEPT_SOURCE_HEADER))).toEqual([word]);
      expect(kept.map((event) => event.attempts[0]!.problems[0])).toEqual([
        `came back unchanged: "${text[word]}" is not in the engine's dictionary (a name or a term kept on purpose goes in doNotTranslate)`,
      ]);
      // The first French source builds nspell's dictionary-fr: 7 s on a quiet machine, over 30 s at a load of 15.
    },
    120_000,
  );

  it('a one-word label the tagger reads as a name but Apertium knows is translated ("Diamond" → "Diamante"); unknown ones stay', async () => {
    kept.length = 0;
    const reply = await server.translate({
      text: ['Diamond', 'Excalidraw', 'Color', 'Budgeted'],
      source_lang: 'EN',
      target_lang: 'ES',
    });
    expect(reply.status).toBe(200);
    expect(reply.data.translations.map((t: { text: string }) => t.text)).toEqual([
      'Diamante',
      'Excalidraw',
      'Color',
      'Budgeted',
    ]);
    expect(parseKeptSource(reply.headers.get(KEPT_SOURCE_HEADER))).toEqual([3]);
  });

  it('a word left English inside a translated sentence is reported; the translation stands ("color picker")', async () => {
    kept.length = 0;
    const reply = await server.translate({
      text: ['The house is big.', 'Open the color picker.', 'Open the GitHub page.'],
      source_lang: 'EN',
      target_lang: 'ES',
    });
    expect(reply.status).toBe(200);
    const outputs = reply.data.translations.map((t: { text: string }) => t.text);
    expect(outputs[1]).toBe('Abierto el color picker.');
    // Translated, so not named by the header (which clients count as failures); the chain's event names the word.
    expect(reply.headers.get(KEPT_SOURCE_HEADER)).toBeNull();
    // Its own header names the text and the word.
    expect(reply.headers.get(LEFT_WORDS_HEADER)).toBe('1:picker');
    expect(kept).toHaveLength(1);
    expect(kept[0]!.left).toEqual(['picker']);
    expect(kept[0]!.attempts[0]!.problems).toEqual([
      `left in the source language: "picker" is not in the engine's dictionary (a name or a term kept on purpose goes in doNotTranslate)`,
    ]);
  });

  it('X-Glossa-Left-Words names the text holding the sentence, with markup and beside a failed text', async () => {
    kept.length = 0;
    const reply = await server.translate({
      text: ['Budgeted', 'The house is big. Open the <b>color picker</b>.', 'GitHub'],
      source_lang: 'EN',
      target_lang: 'ES',
      tag_handling: 'html',
    });
    expect(reply.status).toBe(200);
    expect(reply.data.translations[1].text).toContain('picker');
    expect(parseKeptSource(reply.headers.get(KEPT_SOURCE_HEADER))).toEqual([0]);
    expect(reply.headers.get(LEFT_WORDS_HEADER)).toBe('1:picker');
  });

  it('a pseudo-locale is never judged', async () => {
    kept.length = 0;
    const reply = await server.translate({ text: ['Budgeted'], source_lang: 'EN', target_lang: 'EN-XA' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get(KEPT_SOURCE_HEADER)).toBeNull();
    expect(kept).toEqual([]);
  });
});

/** `engine`, with the texts of each call it answers added to `sent`. */
function recording(engine: ReturnType<typeof createApertiumEngine>, sent: string[][]) {
  return {
    ...engine,
    translate: (input: EngineInput) => {
      sent.push([...input.texts]);
      return engine.translate(input);
    },
  };
}

describe('output cache and kept-source (real Apertium through the chain)', () => {
  it('a cached output with a word left reports it again (X-Glossa-Left-Words and the event), unsent', async () => {
    const apertium = createApertiumEngine();
    const sent: string[][] = [];
    const events: KeptSource[] = [];
    const server = await startTestServer({
      onKeptSource: (event) => events.push(event),
      engines: [recording(apertium, sent)],
    });
    try {
      const body = {
        text: ['The house is big.', 'Open the color picker.'],
        source_lang: 'EN',
        target_lang: 'ES',
      };
      const first = await server.translate(body);
      const second = await server.translate(body);
      expect(second.data).toEqual(first.data);
      expect(first.headers.get(LEFT_WORDS_HEADER)).toBe('1:picker');
      expect(second.headers.get(LEFT_WORDS_HEADER)).toBe('1:picker');
      expect(sent.flat().filter((text) => text === 'Open the color picker.')).toHaveLength(1);
      expect(events.map((event) => [event.text, event.left])).toEqual([
        ['Open the color picker.', ['picker']],
        ['Open the color picker.', ['picker']],
      ]);
    } finally {
      await server.close();
      await apertium.close();
    }
  });

  it('keeps "GitHub" (unchanged on purpose) and sends "Budgeted" (every engine failed) again', async () => {
    const apertium = createApertiumEngine();
    const sent: string[][] = [];
    const server = await startTestServer({
      engines: [recording(apertium, sent)],
    });
    try {
      const body = {
        text: ['GitHub', 'Budgeted', 'The house is big.'],
        source_lang: 'EN',
        target_lang: 'ES',
      };
      const first = await server.translate(body);
      const second = await server.translate(body);
      expect(second.data).toEqual(first.data);
      expect(parseKeptSource(second.headers.get(KEPT_SOURCE_HEADER))).toEqual([1]);
      expect(sent.flat().filter((text) => text === 'GitHub')).toEqual(['GitHub']);
      expect(sent.flat().filter((text) => text === 'Budgeted')).toEqual(['Budgeted', 'Budgeted']);
      expect(sent.flat().filter((text) => text === 'The house is big.')).toHaveLength(1);
    } finally {
      await server.close();
      await apertium.close();
    }
  });
});

describe('X-Glossa-Left-Words value', () => {
  it('lists texts ascending with percent-encoded words, and counts those past the bound', () => {
    expect(formatLeftWords(new Map())).toBeUndefined();
    expect(
      formatLeftWords(
        new Map([
          [3, ['budgeted']],
          [0, ['picker', 'réessayer']],
        ]),
      ),
    ).toBe('0:picker,r%C3%A9essayer;3:budgeted');
    const many = new Map(Array.from({ length: 1_000 }, (_, index) => [index, ['picker']] as const));
    const value = formatLeftWords(many)!;
    expect(value.length).toBeLessThanOrEqual(MAX_LEFT_WORDS_HEADER);
    const listed = value.split(';').filter((entry) => entry.includes(':'));
    expect(value.endsWith(`;+${1_000 - listed.length}`)).toBe(true);
    expect(listed.at(-1)).toBe(`${listed.length - 1}:picker`);
  });
});
