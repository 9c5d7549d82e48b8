import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CodeMap,
  createTranslationRun,
  decodeWithCodes,
  encodeWithCodes,
  extractIcu,
  i18nextCodes,
  inlinePlainText,
  printfCodes,
  pseudoLocalize,
  type RunSegment,
  type Translator,
} from '../src/index.js';
import { startTestServer } from './helpers/server.js';

let env: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  env = await startTestServer();
});
afterAll(async () => {
  await env?.close();
});

const I18NEXT = [
  'Hello {{name}}, you have {{count, number}} new <0>messages</0>.',
  'See $t(common.help) for the <1>full list</1> of {{- product}} features.',
];
const PRINTF = ['%1$s sent you %2$d files of %(size)s.', 'Download %s of %d finished, 100%% complete.'];
const ICU =
  'Hello <b>{name}</b>! {count, plural, =0 {You have no new messages.} one {You have # new message from {sender}.} other {You have # new messages from {sender}.}}';

/** Segments for every code kind, with the CodeMap of each to decode the targets. */
function corpus() {
  const segments: RunSegment[] = [];
  const codes = new Map<string, CodeMap>();
  const add = (key: string, source: string, map: CodeMap) => {
    segments.push({ key, source, file: 'locales/en.json' });
    codes.set(key, map);
  };
  I18NEXT.forEach((text, i) => {
    const e = encodeWithCodes(text, i18nextCodes);
    add(`i18next.${i}`, e.source, e.codes);
  });
  PRINTF.forEach((text, i) => {
    const e = encodeWithCodes(text, printfCodes);
    add(`printf.${i}`, e.source, e.codes);
  });
  const icu = extractIcu(ICU, 'icu');
  for (const s of icu.segments) add(s.key, s.source, s.codes);
  return { segments, codes, icu };
}

/** Every code's original bytes appear in the decoded output as often as in the input. */
function expectCodesKept(input: string, output: string, finder: typeof i18nextCodes) {
  const raw = (text: string) =>
    finder(text)
      .map((c) => text.slice(c.start, c.end))
      .sort();
  expect(raw(output)).toEqual(raw(input));
}

describe.each([
  ['pseudo (en-XA)', 'en-XA'],
  ['Apertium (es)', 'es'],
])('placeholder round trips through the real server: %s', (_name, locale) => {
  it('i18next, printf and ICU codes come back whole and in place', async () => {
    const { segments, codes, icu } = corpus();
    const run = createTranslationRun({ translator: env.client, sourceLang: 'en', targetLangs: [locale] });
    const { targets, report } = await run.translate({ segments });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(1);
    const out = targets.get(locale)!;
    const decoded = (key: string) => decodeWithCodes(out.get(key)!, codes.get(key)!);

    I18NEXT.forEach((text, i) => {
      expectCodesKept(text, decoded(`i18next.${i}`), i18nextCodes);
    });
    PRINTF.forEach((text, i) => {
      expectCodesKept(text, decoded(`printf.${i}`), printfCodes);
    });
    const message = icu.rebuild(new Map(icu.segments.map((s) => [s.key, out.get(s.key)!])));
    expect(extractIcu(message, 'again').segments.map((s) => s.key.replace('again', 'icu'))).toEqual(
      icu.segments.map((s) => s.key),
    );
    expect(message).toMatch(
      /^.*<b>\{name\}<\/b>.*\{count, plural, =0 \{.*\} one \{.*#.*\{sender\}.*\} other \{.*#.*\{sender\}.*\}\}$/,
    );

    if (locale === 'en-XA') {
      // Every letter pseudo-localized; a one-sentence text is exactly what core's re-exported function gives.
      for (const s of segments) expect(inlinePlainText(out.get(s.key)!)).not.toMatch(/[A-Za-z]/);
      const single = segments.find((s) => s.key === 'printf.0')!;
      expect(out.get('printf.0')).toBe(pseudoLocalize(single.source, 'en-XA'));
      expect(decoded('printf.0')).toMatch(/^\[%1\$s .* %2\$d .* %\(size\)s\.\]$/);
    } else {
      expect(decoded('i18next.0')).toMatch(/^Hola \{\{name\}\}.*\{\{count, number\}\}.*<0>.*mensajes.*<\/0>/);
      expect(message).toContain('mensajes');
    }
  });
});

describe('runs against the real server', () => {
  it('sends one request for a catalog with duplicates and bills each unique code point once', async () => {
    const base = corpus().segments;
    const segments = [...base, ...base.map((s) => ({ ...s, key: `${s.key}.copy` }))];
    const run = createTranslationRun({ translator: env.client, sourceLang: 'en', targetLangs: ['es'] });
    const estimate = await run.estimate({ segments });
    const { report } = await run.translate({ segments });
    expect(report.requests).toBe(1);
    expect(estimate.requests).toBe(1);
    expect(estimate.requestBytes).toBe(report.requestBytes);
    expect(report.billedCharacters).toBe(estimate.billedCharacters);
  });

  it('with an injected code loss on the first attempt: retried with the second encoding, then kept or fixed', async () => {
    const calls: string[][] = [];
    const dropping: Translator = {
      async translateText(texts, options) {
        calls.push(texts);
        const result = await env.client.translateText(texts, options);
        // First request: drop the paired codes, as a faulty engine might.
        return calls.length === 1
          ? result.map((r) => ({ ...r, text: r.text.replace(/<\/?g[^>]*>/g, '') }))
          : result;
      },
    };
    const segments: RunSegment[] = [
      {
        key: 'a',
        source: 'Click the <g id="1">red car</g> now.',
        file: 'page.html',
        position: { line: 4, column: 9 },
      },
    ];
    const run = createTranslationRun({ translator: dropping, sourceLang: 'en', targetLangs: ['es'] });
    const { targets, report } = await run.translate({ segments });
    expect(calls).toEqual([
      ['Click the <g id="1">red car</g> now.'],
      ['Click the <x id="1.o"/>red car<x id="1.c"/> now.'],
    ]);
    expect(report.retried).toBe(1);
    expect(report.failures).toEqual([]);
    expect(targets.get('es')!.get('a')).toMatch(/<g id="1">[^<]+<\/g>/);
  });

  it('a segment whose codes never come back is kept in the source language and reported with file and position', async () => {
    const losing: Translator = {
      async translateText(texts, options) {
        const result = await env.client.translateText(texts, options);
        return result.map((r) => ({ ...r, text: r.text.replace(/<[^>]+>/g, '') }));
      },
    };
    const segments: RunSegment[] = [
      {
        key: 'a',
        source: 'Click the <g id="1">red car</g> now.',
        file: 'page.html',
        position: { line: 4, column: 9 },
      },
      { key: 'b', source: 'Good morning' },
    ];
    const events: string[] = [];
    const run = createTranslationRun({
      translator: losing,
      sourceLang: 'en',
      targetLangs: ['es'],
      onEvent: (e) => events.push(e.type),
    });
    const { targets, report } = await run.translate({ segments });
    expect(targets.get('es')!.get('a')).toBe('Click the <g id="1">red car</g> now.');
    expect(targets.get('es')!.get('b')).toBe('Buenos días');
    expect(report.failures).toEqual([
      {
        locale: 'es',
        key: 'a',
        file: 'page.html',
        position: { line: 4, column: 9 },
        reason:
          'Inline codes changed: missing g#1; after the second encoding: Inline codes changed: missing g#1',
      },
    ]);
    expect(events).toEqual(['start', 'cache', 'request', 'request', 'failure', 'wave', 'done']);
  });
});
