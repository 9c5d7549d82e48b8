/**
 * Symbol-font characters in PDFs (issue 21): a PDF exported by LibreOffice from a Word document whose
 * bullets and inline symbols are Symbol and Wingdings characters (test/fixtures/symbol-bullets.pdf, see the
 * README there) carries them as private-use code points (U+F0B7 …); they are read as the Unicode
 * characters they show, translated around and drawn in DejaVu.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { symbolFontKind, unicodeForSymbols } from '../src/formats/pdf-symbols.js';
import { translateFile } from './document-helpers.js';
import { styledRuns } from './document-pdf-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

it('Word bullets (Symbol •, Wingdings ▪ ➢ ✓ ❖) and inline symbols in a LibreOffice PDF: translated (Apertium en→es) and drawn', async () => {
  const { bytes, final } = await translateFile(t, 'symbol-bullets.pdf', fixture('symbol-bullets.pdf'), {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(final.status).toBe('done');
  const lines = new Map<number, string>();
  for (const run of await styledRuns(bytes))
    lines.set(Math.round(run.y), `${lines.get(Math.round(run.y)) ?? ''}${run.text}`);
  const text = [...lines.values()];
  expect(text[0]).toBe('La casa es grande.');
  expect(text.slice(1, 6).map((line) => line.slice(0, 2))).toEqual(['• ', '▪ ', '➢ ', '✓ ', '❖ ']);
  expect(text[1]).toBe('• El gato es negro.');
  expect(text[2]).toMatch(/^▪ El perro .* jardín\.$/);
  expect(text[5]).toBe('❖ El coche es rojo.');
  // Inline: Symbol's arrow and alpha, Wingdings' check mark.
  expect(text[6]).toMatch(/^La carretera → la casa\. El ángulo ?α ?es pequeño\. .*✓$/);
  expect(text.join('\n')).not.toMatch(/[\uf000-\uf0ff]/);
});

it('the font name decides the table when it says (Word exports Symbol and Wingdings by name)', () => {
  const symbol = ['symbol', 'symbol'] as const;
  const wingdings = ['wingdings', 'wingdings'] as const;
  expect(unicodeForSymbols('\uf0b7 ', symbol, true)).toBe('• ');
  expect(unicodeForSymbols('\uf0fc ', wingdings, false)).toBe('✓ ');
  expect(unicodeForSymbols('\uf0e0 ', wingdings, false)).toBe('→ ');
  expect(unicodeForSymbols('\uf0e0 ', symbol, false)).toBe('◊ ');
  // OpenSymbol (name unknown): a marker is Wingdings' when Wingdings has it, a letter inline is Symbol's.
  expect(
    unicodeForSymbols('\uf06e x \uf06e', ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'], true),
  ).toBe('■ x ν');
  expect(symbolFontKind('ABCDEF+Wingdings-Regular')).toBe('wingdings');
  expect(symbolFontKind('Wingdings3')).toBe('unknown');
  expect(symbolFontKind('SymbolMT')).toBe('symbol');
  expect(symbolFontKind('CAAAAA+OpenSymbol')).toBe('unknown');
});
