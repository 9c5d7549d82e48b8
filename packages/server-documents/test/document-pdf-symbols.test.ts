/**
 * Symbol-font characters in PDFs (issue 21): PDFs exported by LibreOffice from Word documents whose bullets
 * and inline symbols are Symbol, Wingdings, Wingdings 2, Wingdings 3 and Webdings characters
 * (test/fixtures/symbol-bullets.pdf and dingbat-bullets.pdf, see the README there) carry them as
 * private-use code points (U+F0B7 …) drawn in OpenSymbol; they are read as the Unicode characters they show
 * (the Unicode Consortium's mapping), translated around and drawn (DejaVu, or Symbola for the pictures
 * DejaVu lacks).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WEBDINGS, WINGDINGS, WINGDINGS_2, WINGDINGS_3 } from '../src/formats/dingbats.js';
import { OPENSYMBOL_BOX } from '../src/formats/opensymbol-glyphs.js';
import { openSymbolKind, symbolFontKind, unicodeForSymbols } from '../src/formats/pdf-symbols.js';
import { translateFile } from './document-helpers.js';
import { type ShownRun, styledRuns } from './document-pdf-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** The runs of a page joined by baseline, top to bottom; a gap between two runs (a list marker's tab) is a space. */
function linesOf(runs: readonly ShownRun[]): string[] {
  const lines = new Map<number, { text: string; end: number }>();
  for (const run of runs) {
    const line = lines.get(Math.round(run.y));
    const gap = line !== undefined && run.x > line.end + 1 && !line.text.endsWith(' ') ? ' ' : '';
    lines.set(Math.round(run.y), { text: `${line?.text ?? ''}${gap}${run.text}`, end: run.x + run.width });
  }
  return [...lines.values()].map((line) => line.text);
}

it('Word bullets (Symbol •, Wingdings ▪ ⮚ ✓ ❖) and inline symbols in a LibreOffice PDF: translated (Apertium en→es) and drawn', async () => {
  const { bytes, final } = await translateFile(t, 'symbol-bullets.pdf', fixture('symbol-bullets.pdf'), {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(final.status).toBe('done');
  const runs = await styledRuns(bytes);
  const text = linesOf(runs);
  expect(text[0]).toBe('La casa es grande.');
  expect(text.slice(1, 6).map((line) => [...line].slice(0, 2).join(''))).toEqual([
    '• ',
    '▪ ',
    '⮚ ',
    '✓ ',
    '❖ ',
  ]);
  expect(text[1]).toBe('• El gato es negro.');
  expect(text[2]).toMatch(/^▪ El perro .* jardín\.$/);
  expect(text[5]).toBe('❖ El coche es rojo.');
  // Inline: Symbol's arrow and alpha, Wingdings' check mark.
  expect(text[6]).toMatch(/^La carretera → la casa\. El ángulo ?α ?es pequeño\. .*✓$/);
  expect(text.join('\n')).not.toMatch(/[\uf000-\uf0ff]/);
  // ⮚ (U+2B9A, Wingdings 0xD8 in Unicode's mapping) has no DejaVu glyph: drawn in Symbola, the rest in DejaVu.
  expect(runs.find((run) => run.text.includes('⮚'))?.font).toBe('Symbola');
  expect(runs.find((run) => run.text.includes('gato'))?.font).toMatch(/^DejaVu/);
});

it('Wingdings 2, Wingdings 3 and Webdings bullets and inline symbols in a LibreOffice PDF: translated and drawn (before: read as Π ☼ ′ ◆ ④ = ④ ♑, ☒ as Τ, 🡆 as ∅)', async () => {
  const { bytes, final } = await translateFile(t, 'dingbat-bullets.pdf', fixture('dingbat-bullets.pdf'), {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(final.status).toBe('done');
  const runs = await styledRuns(bytes);
  const text = linesOf(runs);
  expect(text[0]).toBe('El jardín es verde.');
  // Wingdings 2 🗸 ☑ ■, Wingdings 3 ▶, Webdings ⏺ ⬛; Wingdings 3's ⯈ and Webdings' ✔ are boxes in the
  // source PDF (LibreOffice had no glyph for them), and stay boxes.
  expect(text.slice(1, 9).map((line) => [...line][0])).toEqual(['🗸', '☑', '■', '▶', '▯', '⏺', '▯', '⬛']);
  expect(text[1]).toBe('🗸 El gato es negro.');
  expect(text[6]).toMatch(/^⏺ La mesa es marr[oó]n\.$/);
  expect(text[8]).toMatch(/^⬛ La puerta .*abierta\.$/);
  // Inline: Wingdings 2's ☒ and Wingdings 3's 🡆 (U+1F846) stay in their sentence.
  expect(text[9], text[9]).toMatch(/☒/);
  expect(text[9]).toMatch(/🡆/);
  expect(text.join('\n')).not.toMatch(/[\uf000-\uf0ff]/);
  for (const symbol of ['🗸', '⏺', '🡆'])
    expect(runs.find((run) => run.text.includes(symbol))?.font).toBe('Symbola');
});

it('the font name decides the table when it says (Word embeds the symbol fonts by name)', () => {
  const named = (kind: Parameters<typeof unicodeForSymbols>[1][number]) => [kind, kind] as const;
  expect(unicodeForSymbols('\uf0b7 ', named('symbol'), true)).toBe('• ');
  expect(unicodeForSymbols('\uf0fc ', named('wingdings'), false)).toBe('✓ ');
  expect(unicodeForSymbols('\uf0e0 ', named('wingdings'), false)).toBe('🡪 ');
  expect(unicodeForSymbols('\uf0e0 ', named('symbol'), false)).toBe('◊ ');
  expect(unicodeForSymbols('\uf050 ', named('wingdings2'), true)).toBe('🗸 ');
  expect(unicodeForSymbols('\uf052 ', named('wingdings2'), true)).toBe('☑ ');
  expect(unicodeForSymbols('\uf04f ', named('wingdings2'), true)).toBe('🗴 ');
  expect(unicodeForSymbols('\uf084 ', named('wingdings3'), true)).toBe('⯈ ');
  expect(unicodeForSymbols('\uf075 ', named('wingdings3'), true)).toBe('▶ ');
  expect(unicodeForSymbols('\uf061 ', named('webdings'), true)).toBe('✔ ');
  expect(unicodeForSymbols('\uf03d ', named('webdings'), true)).toBe('⏺ ');
  // No Unicode equivalent (Wingdings 0xFF, the Windows logo; Symbol 0x80): kept as the code, never dropped.
  expect(unicodeForSymbols('\uf0ff ', named('wingdings'), true)).toBe('\uf0ff ');
  expect(unicodeForSymbols('\uf080 ', named('symbol'), true)).toBe('\uf080 ');
  // Font unknown and the glyph unknown (another producer): a marker is Wingdings', a letter inline Symbol's.
  expect(
    unicodeForSymbols('\uf06e x \uf06e', ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'], true),
  ).toBe('◼ x ν');
  expect(symbolFontKind('ABCDEF+Wingdings-Regular')).toBe('wingdings');
  expect(symbolFontKind('Wingdings3')).toBe('wingdings3');
  expect(symbolFontKind('BCDEFG+Wingdings2')).toBe('wingdings2');
  expect(symbolFontKind('Wingdings 2')).toBe('wingdings2');
  expect(symbolFontKind('Webdings')).toBe('webdings');
  expect(symbolFontKind('SymbolMT')).toBe('symbol');
  expect(symbolFontKind('CAAAAA+OpenSymbol')).toBe('unknown');
  // OpenSymbol: the glyph LibreOffice drew says which font; its empty box is a box.
  expect(openSymbolKind(OPENSYMBOL_BOX, 0x84)).toBe('box');
  expect(openSymbolKind('000000000000', 0x84)).toBe('unknown');
});

it("the four tables are the Unicode Consortium's: 866 of the 867 codes mapped (not the Windows logo)", () => {
  const count = (table: readonly number[]) => table.slice(1).filter((code) => code !== 0).length;
  expect([WEBDINGS, WINGDINGS, WINGDINGS_2, WINGDINGS_3].map(count)).toEqual([222, 221, 216, 207]);
  // Spot checks against L2/12-368's WDingsSources.txt.
  expect(WINGDINGS[0xfc - 0x20]).toBe(0x2713);
  expect(WINGDINGS[0xff - 0x20]).toBe(0);
  expect(WINGDINGS_2[0x50 - 0x20]).toBe(0x1f5f8);
  expect(WINGDINGS_3[0x75 - 0x20]).toBe(0x25b6);
  expect(WEBDINGS[0x61 - 0x20]).toBe(0x2714);
});
