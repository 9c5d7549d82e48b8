import { pseudoLocalize } from '@glossa/protocol';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../src/engines/engine.js';
import { createPseudoEngine } from '../src/engines/pseudo.js';

const RLE = '\u202B';
const RLO = '\u202E';
const PDF = '\u202C';
const RLM = '\u200F';
const rtlWord = (word: string) => RLM + RLO + word + PDF + RLM;

describe('pseudoLocalize', () => {
  it('en-XA accents, expands and brackets', () => {
    expect(pseudoLocalize('Hello world', 'en-XA')).toBe('[Ĥééļļöö ŵöööŕļð]');
    expect(pseudoLocalize('Save now', 'EN-XA')).toBe('[Šåṽéé ñööŵ]');
  });

  it('en-XA grows the translatable letters by about 35%', () => {
    const source = 'The quick brown fox jumps over the lazy dog while the cat sleeps on the warm windowsill';
    const out = pseudoLocalize(source, 'en-XA');
    const letters = (s: string) => [...s.replace(/[\s[\]]/g, '')].length;
    expect(letters(out) / letters(source)).toBeCloseTo(1.35, 1);
  });

  it('en-XA pads a text without vowels', () => {
    expect(pseudoLocalize('123456', 'en-XA')).toBe('[123456 ·]');
  });

  it('ar-XB embeds right-to-left and mirrors every word', () => {
    expect(pseudoLocalize('Hello world.', 'ar-XB')).toBe(
      `${RLE}${rtlWord('Hello')} ${rtlWord('world')}.${PDF}`,
    );
  });

  it('keeps inline codes, entities and placeholders byte for byte', () => {
    const source =
      'Click <g id="1">the <x id="2"/> car</g> &lt;b&gt; &#38; &amp; {{count}} {0} {name} $' +
      '{user} %s %1$d %(n)s %@';
    const codes = source.match(/<[^>]+>|&[^;]+;|\{\{[^}]+\}\}|\$\{[^}]+\}|\{[^}]+\}|%\S+/g)!;
    for (const locale of ['en-XA', 'ar-XB']) {
      const out = pseudoLocalize(source, locale);
      let at = 0;
      for (const code of codes) {
        const found = out.indexOf(code, at);
        expect(found, `${code} in ${locale}`).toBeGreaterThanOrEqual(0);
        at = found + code.length;
      }
    }
    expect(pseudoLocalize('Save <x id="1"/> now', 'en-XA')).toBe('[Šåṽéé <x id="1"/> ñööŵ]');
  });

  it('keeps an ICU argument whole', () => {
    const icu = '{count, plural, one {# item} other {# items in {place}}}';
    expect(pseudoLocalize(`You have ${icu} left`, 'en-XA')).toBe(`[Ýööûû ĥåṽéé ${icu} ļééƒţ]`);
  });

  it('is deterministic', () => {
    const text = 'Click the <g id="1">red car</g> now, {{name}}.';
    const first = pseudoLocalize(text, 'en-XA');
    for (let i = 0; i < 5; i++) expect(pseudoLocalize(text, 'en-XA')).toBe(first);
    expect(pseudoLocalize(text, 'ar-XB')).toBe(pseudoLocalize(text, 'ar-XB'));
  });

  it('leaves a text with nothing to localize unchanged', () => {
    for (const text of ['', '  ', '<x id="1"/>', '<g id="1"> </g> {{name}}']) {
      expect(pseudoLocalize(text, 'en-XA')).toBe(text);
      expect(pseudoLocalize(text, 'ar-XB')).toBe(text);
    }
  });

  it('ar-XB keeps numbers left-to-right', () => {
    expect(pseudoLocalize('Page 12', 'ar-XB')).toBe(`${RLE}${rtlWord('Page')} 12${PDF}`);
  });

  it('rejects a locale that is not a pseudo-locale with a RangeError', () => {
    expect(() => pseudoLocalize('Hi', 'de')).toThrow(
      new RangeError(`pseudoLocalize: expected locale 'en-XA' or 'ar-XB', got "de"`),
    );
  });
});

describe('createPseudoEngine', () => {
  const engine = createPseudoEngine();

  it('offers every base source language into en-XA and ar-XB', () => {
    const pairs = engine.pairs();
    expect(pairs).toContainEqual({ source: 'en', target: 'en-XA' });
    expect(pairs).toContainEqual({ source: 'ja', target: 'ar-XB' });
    expect(pairs.some((p) => p.source.includes('-'))).toBe(false);
    expect(new Set(pairs.map((p) => p.target))).toEqual(new Set(['en-XA', 'ar-XB']));
  });

  it('translates each text in order', async () => {
    const out = await engine.translate({
      texts: ['Hello world', 'Save <x id="1"/> now'],
      source: 'en',
      target: 'en-XA',
      markup: true,
      formality: 'default',
    });
    expect(out).toEqual(['[Ĥééļļöö ŵöööŕļð]', '[Šåṽéé <x id="1"/> ñööŵ]']);
  });

  it('fingerprints per target and ignores formality', () => {
    expect(engine.fingerprint({ source: 'en', target: 'en-XA' })).toBe('pseudo/1/en-XA');
    expect(engine.fingerprint({ source: 'de', target: 'ar-XB' })).toBe('pseudo/1/ar-XB');
    expect(engine.supportsFormality('en-XA')).toBe(false);
  });

  it('refuses a target that is not a pseudo-locale with an EngineError', async () => {
    const call = engine.translate({
      texts: ['Hi'],
      source: 'en',
      target: 'es',
      markup: false,
      formality: 'default',
    });
    await expect(call).rejects.toThrow(EngineError);
    await expect(call).rejects.toThrow('pseudo engine: no pseudo-locale "es"');
  });
});
