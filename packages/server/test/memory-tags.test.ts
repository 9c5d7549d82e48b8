import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { importTmx, tmx, waitForJob } from './memory-helpers.js';

let t: TestServer;
let memory: string;
const b = (text: string) => `<bpt i="1">&lt;b&gt;</bpt>${text}<ept i="1">&lt;/b&gt;</ept>`;
const UNITS = [
  [`Open the ${b('settings')}.`, `Abra la ${b('configuración')}.`],
  // Codes told apart by `x`: the target puts them in the other order.
  [
    'The <bpt i="1" x="1">&lt;b&gt;</bpt>red<ept i="1">&lt;/b&gt;</ept> <bpt i="2" x="2">&lt;i&gt;</bpt>car<ept i="2">&lt;/i&gt;</ept> is fast.',
    'El <bpt i="1" x="2">&lt;i&gt;</bpt>coche<ept i="1">&lt;/i&gt;</ept> <bpt i="2" x="1">&lt;b&gt;</bpt>rojo<ept i="2">&lt;/b&gt;</ept> es rápido.',
  ],
  ['Press <ph x="1">{0}</ph> to save the document.', 'Pulse <ph x="1">{0}</ph> para guardar el documento.'],
  // The target lost the source's code: it cannot answer a tagged unit.
  [`Delete the ${b('old')} files.`, 'Elimine los archivos antiguos.'],
  ['Your changes have been saved.', 'Se han guardado sus cambios.'],
  // A code inside a word: the plain text glues it into one token ("reload").
  ['Re<ph x="1">&lt;br&gt;</ph>load the page.', 'Re<ph x="1">&lt;br&gt;</ph>cargue la página.'],
] as const;

beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
  const job = await importTmx(t, tmx(UNITS), 'tagged');
  expect(job.status).toBe('completed');
  memory = job.result.translation_memory_id;
});
afterAll(async () => {
  await t.close();
});

const translate = async (text: string, extra: Record<string, unknown> = {}, memoryId = memory) => {
  const reply = await t.translate({
    text: [text],
    source_lang: 'EN',
    target_lang: 'ES',
    translation_memory_id: memoryId,
    show_translation_memory_matches: true,
    ...extra,
  });
  expect(reply.status).toBe(200);
  const translation = reply.data.translations[0];
  return {
    text: translation.text as string,
    matches: translation.customizations.translation_memory_matches as {
      match_score: number;
      segment_id: string;
      text_ranges: { start: number; end: number }[];
    }[],
  };
};

describe('translation memory matches for units with inline tags', () => {
  it('an exact match takes the request’s own tags, around the right words', async () => {
    const text = 'Open the <strong class="ui">settings</strong>.';
    const reply = await translate(text, { tag_handling: 'html' });
    expect(reply.text).toBe('Abra la <strong class="ui">configuración</strong>.');
    expect(reply.matches).toEqual([
      {
        translation_memory_id: memory,
        segment_id: expect.any(String),
        match_score: 100,
        text_ranges: [{ start: 0, end: text.length }],
      },
    ]);
  });

  it('codes are mapped by the TMX x attribute: the target’s reordering follows the request’s tags', async () => {
    const reply = await translate('<p>The <em>red</em> <a href="/car">car</a> is fast.</p>', {
      tag_handling: 'html',
    });
    expect(reply.text).toBe('<p>El <a href="/car">coche</a> <em>rojo</em> es rápido.</p>');
    expect(reply.matches[0]).toMatchObject({ match_score: 100, text_ranges: [{ start: 3, end: 51 }] });
  });

  it('a standalone code (ph) answers an empty element, with xml and with html', async () => {
    const xml = await translate('Press <key name="enter"/> to save the document.', { tag_handling: 'xml' });
    expect(xml.text).toBe('Pulse <key name="enter"/> para guardar el documento.');
    const html = await translate('Press <img src="enter.png"> to save the document.', {
      tag_handling: 'html',
    });
    expect(html.text).toBe('Pulse <img src="enter.png"> para guardar el documento.');
    expect(html.matches).toMatchObject([{ match_score: 100 }]);
  });

  it('a fuzzy match over the threshold is used with its score; under the threshold it is not', async () => {
    // 6 tokens in match form (open, the, <b>, settings, </b>, !), one substituted: ⌊100 × 5/6⌋ = 83.
    const fuzzy = await translate('Open the <b>settings</b>!', { tag_handling: 'html' });
    // Used as a translator would (issue 21): the different final mark is carried into the memory's target.
    expect(fuzzy.text).toBe('Abra la <b>configuración</b>!');
    expect(fuzzy.matches).toMatchObject([{ match_score: 83 }]);
    const strict = await translate('Open the <b>settings</b>!', {
      tag_handling: 'html',
      translation_memory_threshold: 90,
    });
    expect(strict.matches).toEqual([]);
    expect(strict.text).not.toContain('configuración</b>.');
    expect(strict.text).toMatch(/<b>.+<\/b>/);
  });

  it('a code inside a word: the fuzzy candidate is found though its plain text has fewer tokens', async () => {
    // Match form: re, <br>, load, the, page, now, . (7 tokens) against 6, one insertion: ⌊100 × 6/7⌋ = 85;
    // the memory's plain text "Reload the page." has 4 tokens, under the plain lookup's minimum of 6.
    const reply = await translate('Re<br>load the page now.', { tag_handling: 'html' });
    expect(reply.matches).toMatchObject([{ match_score: 85 }]);
    // Found and reported, but "now" (a word the memory lacks) cannot be carried: the engine translates.
    expect(reply.text).not.toBe('Re<br>cargue la página.');
    expect(reply.text).toMatch(/^Re<br>.*ahora\.$/);
  });

  it('a different code count or kind is not a match, nor a target whose codes cannot be mapped', async () => {
    const twoCodes = await translate('Open <i>the</i> <b>settings</b>.', { tag_handling: 'html' });
    expect(twoCodes.matches).toEqual([]);
    expect(twoCodes.text).toMatch(/<i>.*<\/i>.*<b>.*<\/b>/);
    const standalone = await translate('Open the <br>settings.', { tag_handling: 'html' });
    expect(standalone.matches).toEqual([]);
    const lostCode = await translate('Delete the <b>old</b> files.', { tag_handling: 'html' });
    expect(lostCode.matches).toEqual([]);
    expect(lostCode.text).not.toBe('Elimine los archivos antiguos.');
    expect(lostCode.text).toContain('<b>');
  });

  it('untagged units behave as before: plain text and markup without codes take the plain target', async () => {
    const plain = await translate('Open the settings.');
    expect(plain.text).toBe('Abra la configuración.');
    expect(plain.matches).toMatchObject([{ match_score: 100 }]);
    const markup = await translate('<p>Open the settings.</p><p>Your changes have been saved.</p>', {
      tag_handling: 'html',
    });
    expect(markup.text).toBe('<p>Abra la configuración.</p><p>Se han guardado sus cambios.</p>');
    expect(markup.matches.map((match) => match.text_ranges)).toEqual([
      [{ start: 3, end: 21 }],
      [{ start: 28, end: 57 }],
    ]);
  });

  it('one text mixing a tagged match, an untagged match and an engine unit reports each range', async () => {
    const text = '<p>Your changes have been saved.</p><p>The dog sleeps.</p><p>Open the <b>settings</b>.</p>';
    const reply = await translate(text, { tag_handling: 'html' });
    expect(reply.text).toMatch(
      /^<p>Se han guardado sus cambios\.<\/p><p>.*perro.*<\/p><p>Abra la <b>configuración<\/b>\.<\/p>$/,
    );
    const start = text.indexOf('Open');
    expect(reply.matches.map((match) => match.text_ranges)).toEqual([
      [{ start: 3, end: 32 }],
      [{ start, end: start + 'Open the <b>settings</b>.'.length }],
    ]);
  });
});

describe('TMX with inline tags', () => {
  it('export writes the codes back as bpt/ept/ph; a re-import matches the same way and exports the same', async () => {
    const exportOf = async (id: string) => {
      const started = await t.call(`/v3/translation_memories/${id}/export`, { method: 'POST' });
      const done = await waitForJob(t, started.data.job_id);
      expect(done.status).toBe('completed');
      return (await fetch(done.result.download_url)).text();
    };
    const exported = await exportOf(memory);
    expect(exported).toContain(
      '<seg>Open the <bpt i="1" x="1">&lt;b&gt;</bpt>settings<ept i="1">&lt;/b&gt;</ept>.</seg>',
    );
    expect(exported).toContain(
      '<seg>El <bpt i="2" x="2">&lt;i&gt;</bpt>coche<ept i="2">&lt;/i&gt;</ept> <bpt i="1" x="1">&lt;b&gt;</bpt>rojo<ept i="1">&lt;/b&gt;</ept> es rápido.</seg>',
    );
    expect(exported).toContain('<seg>Pulse <ph x="1">{0}</ph> para guardar el documento.</seg>');
    expect(exported).toContain('<seg>Elimine los archivos antiguos.</seg>');
    expect(exported).toContain('<seg>Your changes have been saved.</seg>');

    const copy = await importTmx(t, exported, 'copy');
    expect(copy.result).toMatchObject({ status: 'completed', skipped_segment_count: 0 });
    const id = copy.result.translation_memory_id;
    const segments = await t.call(`/v3/translation_memories/${id}/segments`);
    expect(segments.data.segments[0].source_text).toBe('Open the settings.');
    const reply = await translate(
      '<p>The <em>red</em> <a href="/car">car</a> is fast.</p>',
      { tag_handling: 'html' },
      id,
    );
    expect(reply.text).toBe('<p>El <a href="/car">coche</a> <em>rojo</em> es rápido.</p>');
    expect(await exportOf(id)).toBe(exported);
  });

  it('isolated, unpaired and crossing codes; pairs told apart by i: it/unpaired are standalone, a crossing unit keeps plain text only', async () => {
    const content = tmx([
      [
        '<it pos="begin" x="1">&lt;span&gt;</it>Start here.',
        '<it pos="begin" x="1">&lt;span&gt;</it>Empiece aquí.',
      ],
      ['Lonely <bpt i="7">&lt;u&gt;</bpt>code.', 'Código <bpt i="7">&lt;u&gt;</bpt>solo.'],
      [
        'Cross <bpt i="1">&lt;a&gt;</bpt>one <bpt i="2">&lt;b&gt;</bpt>two<ept i="1">&lt;/a&gt;</ept> three<ept i="2">&lt;/b&gt;</ept>.',
        'Cruce uno dos tres.',
      ],
      // Over 500 codes (MAX_SEGMENT_CODES): plain text only.
      [`Many${'<ph/>'.repeat(600)} codes.`, `Muchos${'<ph/>'.repeat(600)} códigos.`],
      // No x attributes: paired codes are told apart by i.
      [
        'A <bpt i="1">&lt;b&gt;</bpt>big<ept i="1">&lt;/b&gt;</ept> <bpt i="2">&lt;i&gt;</bpt>house<ept i="2">&lt;/i&gt;</ept> stands here.',
        'Una <bpt i="2">&lt;i&gt;</bpt>casa<ept i="2">&lt;/i&gt;</ept> <bpt i="1">&lt;b&gt;</bpt>grande<ept i="1">&lt;/b&gt;</ept> está aquí.',
      ],
    ]);
    const job = await importTmx(t, content, 'odd codes');
    expect(job.status).toBe('completed');
    const id = job.result.translation_memory_id;
    const started = await t.call(`/v3/translation_memories/${id}/export`, { method: 'POST' });
    const done = await waitForJob(t, started.data.job_id);
    const exported = await (await fetch(done.result.download_url)).text();
    expect(exported).toContain('<seg><it pos="begin" x="1">&lt;span&gt;</it>Start here.</seg>');
    expect(exported).toContain('<seg>Lonely <it pos="begin" x="1">&lt;u&gt;</it>code.</seg>');
    expect(exported).toContain('<seg>Cross one two three.</seg>');
    expect(exported).toContain('<seg>Many codes.</seg>');
    const reply = await translate('Lonely <br/>code.', { tag_handling: 'xml' }, id);
    expect(reply.text).toBe('Código <br/>solo.');
    expect(reply.matches).toMatchObject([{ match_score: 100 }]);
    const byI = await translate('A <b>big</b> <u>house</u> stands here.', { tag_handling: 'html' }, id);
    expect(byI.text).toBe('Una <u>casa</u> <b>grande</b> está aquí.');
    const crossing = await translate('Cross <a>one</a> <b>two three</b>.', { tag_handling: 'html' }, id);
    expect(crossing.matches).toEqual([]);
  });
});
