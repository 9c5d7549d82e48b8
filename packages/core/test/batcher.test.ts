import { MAX_TRANSLATE_REQUEST_BYTES } from '@glossa/protocol';
import { describe, expect, it } from 'vitest';
import {
  type BatchItem,
  createBatcher,
  createPseudoTranslator,
  DEFAULT_MARGIN_BYTES,
  pseudoLocalize,
  splitSource,
  type TranslationRequestOptions,
  type Translator,
  wireOptions,
} from '../src/index.js';

const es: TranslationRequestOptions = {
  targetLang: 'es',
  sourceLang: 'en',
  tagHandling: 'xml',
  ignoreTags: ['x'],
};
const sent = { ...es, showBilledCharacters: true };
const bodyOf = (texts: string[], options: object) =>
  JSON.stringify({ ...wireOptions(options as typeof es), text: texts });

/** The pseudo translator, recording each request body it is given. */
function recording() {
  const bodies: string[] = [];
  const pseudo = createPseudoTranslator();
  const translator: Translator = {
    translateText(texts, options) {
      bodies.push(bodyOf(texts, options));
      return pseudo.translateText(texts, { ...options, targetLang: 'en-XA' });
    },
  };
  return { bodies, translator };
}

describe('batcher', () => {
  it('packs unique texts by serialized JSON size under 128 KiB minus the 256-byte margin: exact counts and sizes', () => {
    // 300 unique texts of 1,000 ASCII characters: 1,002 JSON bytes each, 1 byte of comma between.
    const texts = Array.from({ length: 300 }, (_, i) => `${String(i).padStart(4, '0')}${'a'.repeat(996)}`);
    const items: BatchItem[] = [...texts, ...texts].map((text) => ({ text, options: es }));
    const plan = createBatcher().plan(items);
    const base = Buffer.byteLength(bodyOf([], sent)); // {"target_lang":"es",...,"text":[]}
    const limit = MAX_TRANSLATE_REQUEST_BYTES - DEFAULT_MARGIN_BYTES;
    const perRequest = Math.floor((limit - base + 1) / 1003);
    expect(perRequest).toBe(130);
    expect(base).toBe(120);
    expect(plan.requests).toEqual([
      { texts: 130, bytes: base + 130 * 1003 - 1 },
      { texts: 130, bytes: base + 130 * 1003 - 1 },
      { texts: 40, bytes: base + 40 * 1003 - 1 },
    ]);
    expect(plan.requests[0]!.bytes).toBe(130_509);
    expect(plan.billedCharacters).toBe(300_000);
  });

  it('groups by identical options (context, target) and keeps order within each group', async () => {
    const { bodies, translator } = recording();
    const items: BatchItem[] = [
      { text: 'One', options: es },
      { text: 'Two', options: { ...es, context: 'menu' } },
      { text: 'Three', options: { ...es } },
      { text: 'One', options: { ...es, targetLang: 'fr' } },
      { text: 'One', options: { ...es } },
    ];
    const out = await createBatcher({ translator, concurrency: 1 }).translate(items);
    expect(bodies.map((b) => JSON.parse(b).text)).toEqual([['One', 'Three'], ['Two'], ['One']]);
    expect(JSON.parse(bodies[1]!).context).toBe('menu');
    expect(out.results.map((r) => ('text' in r ? r.text : r.error.message))).toEqual(
      ['One', 'Two', 'Three', 'One', 'One'].map(pseudoOf),
    );
    expect(out.requests.map((r) => r.bytes)).toEqual(bodies.map((b) => Buffer.byteLength(b)));
  });

  it('sends a text once even when two items differ only in outer whitespace', async () => {
    const { bodies, translator } = recording();
    const out = await createBatcher({ translator }).translate([
      { text: 'Hello there', options: es },
      { text: '  Hello there\n', options: es },
    ]);
    expect(bodies.map((b) => JSON.parse(b).text)).toEqual([['Hello there']]);
    expect(out.results).toEqual([
      { text: pseudoOf('Hello there') },
      { text: `  ${pseudoOf('Hello there')}\n` },
    ]);
  });

  it('splits a text larger than one request at sentence boundaries and rejoins it', async () => {
    const sentence = (i: number) => `Sentence number ${i} has <g id="${i}">some words</g> in it. `;
    const huge = Array.from({ length: 3000 }, (_, i) => sentence(i + 1))
      .join('')
      .trimEnd();
    expect(Buffer.byteLength(JSON.stringify(huge))).toBeGreaterThan(MAX_TRANSLATE_REQUEST_BYTES);
    const { bodies, translator } = recording();
    const out = await createBatcher({ translator }).translate([{ text: huge, options: es }]);
    expect(bodies.length).toBe(2);
    for (const body of bodies)
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_TRANSLATE_REQUEST_BYTES - DEFAULT_MARGIN_BYTES);
    const parts = bodies.map((b) => JSON.parse(b).text[0] as string);
    expect(parts[0]!.endsWith('in it.')).toBe(true);
    expect(parts.join(' ')).toBe(huge);
    expect(out.results[0]).toEqual({ text: pseudoOf(parts[0]!) + ' ' + pseudoOf(parts[1]!) });
  });

  it('never cuts inside a code; refuses when a single code is larger than a request', () => {
    const inner = 'Some words. '.repeat(40); // 480 characters with sentence ends inside the code
    const source = `First one. <g id="1">${inner}</g>. Last one. ${'More text. '.repeat(40)}`;
    const parts = splitSource(source, 600);
    expect(parts.join('')).toBe(source);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThanOrEqual(600);
      expect(part.split('<g ').length).toBe(part.split('</g>').length); // every code whole
    }
    expect(parts.some((p) => p.includes(`<g id="1">${inner}</g>`))).toBe(true);
    expect(() => splitSource(`<g id="1">${inner}</g>`, 200)).toThrow(
      'A segment cannot be split into parts of at most 200 JSON bytes',
    );
  });

  it('runs at most `concurrency` requests at once', async () => {
    let inFlight = 0;
    let peak = 0;
    const translator: Translator = {
      async translateText(texts) {
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return texts.map((text) => ({
          text,
          detected_source_language: 'EN',
          billed_characters: text.length,
        }));
      },
    };
    const items = Array.from({ length: 20 }, (_, i) => ({
      text: `t${i}`,
      options: { ...es, context: `c${i}` },
    }));
    const out = await createBatcher({ translator, concurrency: 3 }).translate(items);
    expect(peak).toBe(3);
    expect(out.requests.length).toBe(20);
    expect(out.billedCharacters).toBe(items.reduce((sum, i) => sum + i.text.length, 0));
  });

  it('a failed request fails its texts only; 403/456 stop the rest', async () => {
    const quota = Object.assign(new Error('Quota exceeded'), { status: 456 });
    let calls = 0;
    const translator: Translator = {
      async translateText(texts) {
        calls++;
        if (calls === 2) throw quota;
        return texts.map((text) => ({ text, detected_source_language: 'EN' }));
      },
    };
    const items = ['a', 'b', 'c'].map((text, i) => ({ text, options: { ...es, context: String(i) } }));
    const out = await createBatcher({ translator, concurrency: 1 }).translate(items);
    expect(calls).toBe(2);
    expect(out.results).toEqual([{ text: 'a' }, { error: quota }, { error: quota }]);
  });

  it('a 413 (a service that counts bodies differently) is answered by sending the halves', async () => {
    const sizes: number[] = [];
    const translator: Translator = {
      async translateText(texts) {
        sizes.push(texts.length);
        if (texts.length > 2) throw Object.assign(new Error('Request body too large'), { status: 413 });
        return texts.map((text) => ({ text: text.toUpperCase(), detected_source_language: 'EN' }));
      },
    };
    const items = ['a', 'b', 'c', 'd', 'e'].map((text) => ({ text, options: es }));
    const out = await createBatcher({ translator, concurrency: 1 }).translate(items);
    expect(sizes).toEqual([5, 3, 2, 2, 1]);
    expect(out.results).toEqual(['A', 'B', 'C', 'D', 'E'].map((text) => ({ text })));
    expect(out.requests.map((r) => r.error?.message)).toEqual([
      'Request body too large',
      'Request body too large',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('rejects a bad concurrency with a RangeError', () => {
    expect(() => createBatcher({ concurrency: 0 })).toThrow(
      'Expected `concurrency` to be a positive integer, got 0',
    );
  });
});

function pseudoOf(text: string) {
  return pseudoLocalize(text, 'en-XA');
}
