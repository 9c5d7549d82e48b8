/**
 * A large HTML page is translated in parts (issue 31: its memory grew faster than its size when sent as one
 * text): runs of block elements of at most `HTML_PART_CHARS`, cut only between blocks, and put back into the
 * page byte for byte. The translation equals the one-text translation (same units, same output), here with
 * an engine that writes each unit's text in capitals (in-process: the units themselves are compared), and
 * end to end with the pseudo engine (en-XA) on a real server.
 */
import { type Caller, type EngineChoice, keepInitialCase, type ServiceContext } from '@glossa/server/feature';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryAfterGc } from '../../server/test/test-utils.js';
import { HTML_PART_CHARS, htmlFormat } from '../src/formats/html.js';
import { pageParts } from '../src/formats/html-parts.js';
import { prepareTexts, translateTexts } from '../src/translate.js';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const words = ['the', 'garden', 'is', 'green', 'and', 'the', 'house', 'is', 'big', 'today'];
const prose = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => words[(seed + i * 7) % words.length]).join(' ');

/** A page of ordinary structure: sections of paragraphs, lists, tables, loose text, scripts, comments. */
function bigPage(sections: number, tail = ''): string {
  let body = '';
  for (let s = 0; s < sections; s++) {
    body +=
      `<section id="s${s}">\n  <h2>Part ${s}: ${prose(4, s)}</h2>\n` +
      `  Loose text of ${prose(6, s)} <em>before</em> the first block\n` +
      `  <p>${prose(40, s)} <a href="/p${s}">link <b>${prose(3, s)}</b></a>. ${prose(12, s + 1)}.</p>\n` +
      `  <!-- a comment ${s} --><script>var x${s} = "<p>not text</p>";</script>\n` +
      `  <ul><li>${prose(5, s)}</li><li>${prose(6, s + 2)} <i>${prose(2, s)}</i></li></ul>\n` +
      `  <div class="notranslate"><p>${prose(5, s)}</p></div>\n` +
      `  <table><tr><td>${prose(2, s)}</td><td>${prose(3, s + 3)}</td></tr></table>\n` +
      `  <div><div><p>${prose(20, s + 4)}</p>\n<p>${prose(10, s + 5)}<br>${prose(4, s)}</p></div></div>\n` +
      '</section>\n';
  }
  return (
    '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>The garden</title>\n' +
    '<style>p { color: green }</style>\n</head>\n<body class="page">\n<main>\n' +
    body +
    '</main>\n' +
    tail +
    '</body>\n</html>\n'
  );
}

/** Every unit's text outside its codes in capitals: the same output whatever the code ids are. */
const capitals = (unit: string) =>
  unit.replace(/(^|>)([^<]*)/g, (_whole, end: string, text: string) => end + text.toUpperCase());

/** The page translated as one text, as an HTML document was translated before it was cut. */
function oneText(page: string): string {
  const [prepared] = prepareTexts([{ text: page, mode: 'html' }]);
  return prepared!.assemble(prepared!.units.map(capitals));
}

async function inParts(page: string) {
  const extraction = await htmlFormat.extract(new TextEncoder().encode(page), {});
  const prepared = prepareTexts(extraction.texts);
  const outputs = prepared.map((text) => text.assemble(text.units.map(capitals)));
  const output = new TextDecoder().decode(await extraction.rebuild(outputs));
  return { texts: extraction.texts, prepared, output };
}

it('a 700 KB page is many texts of at most HTML_PART_CHARS, and translates as it does as one text', async () => {
  const page = bigPage(800, '<p>The last paragraph never ends <b>and is bold');
  expect(page.length).toBeGreaterThan(700_000);
  const { texts, prepared, output } = await inParts(page);
  expect(texts.length).toBeGreaterThan(20);
  for (const text of texts) {
    expect(text.mode).toBe('html');
    expect(text.text.length).toBeLessThanOrEqual(HTML_PART_CHARS);
  }
  expect(output).toBe(oneText(page));
  // The same units (code ids aside; the frame's first) and the same characters billed.
  const [whole] = prepareTexts([{ text: page, mode: 'html' }]);
  const ids = (unit: string) => unit.replace(/ id="\d+"/g, '');
  expect(
    prepared
      .flatMap((text) => text.units)
      .map(ids)
      .sort(),
  ).toEqual(whole!.units.map(ids).sort());
  expect(prepared.reduce((sum, text) => sum + text.billed, 0)).toBe(whole!.billed);
  // Nothing but the text changed.
  const markup = (html: string) => html.replace(/>[^<]*</g, '><');
  expect(markup(output)).toBe(markup(page));
  expect(output).toContain('<p>THE LAST PARAGRAPH NEVER ENDS <b>AND IS BOLD');
  expect(output).toContain('<script>var x7 = "<p>not text</p>";</script>');
});

it('a cut falls only between blocks of one element: never inside inline markup or loose text', () => {
  const page = bigPage(200);
  const parts = pageParts(page, 4096);
  expect(parts.length).toBeGreaterThan(50);
  for (const part of parts) {
    const text = page.slice(part.start, part.end);
    // Starts with a block's start tag and ends with its end tag.
    expect(text).toMatch(/^<(section|h2|p|ul|div|table|head)[\s>]/);
    expect(text).toMatch(/<\/(section|h2|p|ul|div|table|head)>$/);
    // Never inside the block marked not to be translated (its content is one code).
    expect(page.slice(0, part.start)).not.toMatch(/<div class="notranslate">$/);
    expect(page.slice(part.end)).not.toMatch(/^<\/div>/);
  }
  // A block kept whole where it fits (each <section> is about 800 characters): never a cut inside a <p>.
  for (const part of parts)
    expect(page.slice(part.start, part.end).split('<p>').length).toBe(
      page.slice(part.start, part.end).split('</p>').length,
    );
});

it('one giant block (a 200 KB paragraph) stays one text; a small page is not cut', async () => {
  const giant = `<html><body><p>${prose(40_000, 1)} <b>${prose(3, 2)}</b></p></body></html>`;
  const { texts, output } = await inParts(giant);
  expect(texts.filter((text) => text.mode === 'html').map((text) => text.text.length)).toContain(
    giant.length - '<html><body></body></html>'.length,
  );
  expect(output).toBe(oneText(giant));
  const small = bigPage(3);
  expect((await inParts(small)).texts).toHaveLength(1);
});

it('a page with unclosed elements and stray end tags translates as one text would', async () => {
  const page = bigPage(300, '</span><div><p>Unclosed div <span>and span')
    .replace('<section id="s5">', '<section id="s5"><b>')
    .replace('</section>\n<section id="s9">', '</em></section>\n<section id="s9">');
  const { texts, output } = await inParts(page);
  expect(texts.length).toBeGreaterThan(5);
  expect(output).toBe(oneText(page));
});

it('a page holding "İ" (its lower case is longer) is cut too, and translates as one text would', async () => {
  const page = bigPage(300).replaceAll('<h2>Part', '<h2>İstanbul, part');
  const { texts, output } = await inParts(page);
  expect(texts.length).toBeGreaterThan(5);
  expect(output).toBe(oneText(page));
  expect(output).toContain('<script>var x7 = "<p>not text</p>";</script>');
});

it('end to end (en-XA, pseudo engine): a 700 KB page comes back whole, its text translated, its markup as it was', async () => {
  const page = bigPage(800);
  const { text, final } = await translateFile(t, 'big.html', page, { target_lang: 'en-XA' });
  expect(final.status).toBe('done');
  const markup = (html: string) => html.replace(/>[^<]*</g, '><');
  expect(markup(text)).toBe(markup(page).replace('<html>', '<html lang="en-XA">'));
  expect(text).not.toContain('the garden is green');
  expect(text).toContain('<script>var x799 = "<p>not text</p>";</script>');
});

it('a job prepares each part when its chunk comes and assembles it when done: same output, under 2.5 bytes a character held', async () => {
  const heap = () => memoryAfterGc().heapUsed;
  const page = bigPage(1200);
  const extraction = await htmlFormat.extract(new TextEncoder().encode(page), {});
  // What translateTexts needs of the server with no glossary, memory or style: an engine writing capitals.
  const context = {
    options: { memoryBudgetMb: 768 },
    resources: {},
    outputs: { translate: async (_choice: unknown, texts: string[]) => texts.map(capitals) },
    storage: { recordEngineUsage: async () => {} },
  } as unknown as ServiceContext;
  const caller = { account: { id: 'a' }, key: { id: 'k', accountId: 'a' } } as unknown as Caller;
  const choice = {} as EngineChoice;
  const before = heap();
  const held: number[] = [];
  let chunks = 0;
  const { outputs } = await translateTexts({
    texts: extraction.texts,
    parameters: { file_name: 'page.html', source_lang: 'en', target_lang: 'es' },
    caller,
    choice,
    context,
    checkpoint: () => {},
    onProgress: () => {
      chunks++;
      if (chunks % 4 === 0) held.push(heap() - before);
    },
  });
  const output = new TextDecoder().decode(await extraction.rebuild(outputs));
  console.log(
    `${page.length} characters, ${extraction.texts.length} texts, ${chunks} chunks; bytes held a character every 4 chunks: ${held.map((bytes) => (bytes / page.length).toFixed(2)).join(' ')}`,
  );
  // As every text prepared up front and translated unit by unit (the job keeps a unit's initial case).
  const upFront = prepareTexts(extraction.texts).map((text) =>
    text.assemble(text.units.map((unit) => keepInitialCase(unit, capitals(unit), true, 'es'))),
  );
  expect(output).toBe(new TextDecoder().decode(await extraction.rebuild(upFront)));
  // Every text prepared up front held 4.8–6.3 bytes a character from the first chunk on; now the chunk's
  // parts and the flat outputs so far: 0.6–1.5.
  expect(Math.max(...held) / page.length).toBeLessThan(2.5);
});
