/**
 * A hyperlink or a field inside a sentence is an inline code of the sentence, not a break (issue 21):
 * test/fixtures/hyperlinks.docx is written by LibreOffice from hyperlinks.fodt (see the README there).
 */
import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import PptxModule from 'pptxgenjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

const PptxGenJS = ((PptxModule as unknown as { default?: unknown }).default ??
  PptxModule) as typeof PptxModule.default;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ES = { target_lang: 'ES', source_lang: 'EN' };
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const documentXml = (bytes: Uint8Array) => strFromU8(unzipSync(bytes)['word/document.xml']!);
/** Each paragraph's text, with `[…]` around what a hyperlink holds. */
const paragraphs = (xml: string) =>
  [...xml.matchAll(/<w:p>[\s\S]*?<\/w:p>/g)].map(([p]) =>
    p
      .replace(/<w:hyperlink\b[^>]*>/g, '[')
      .replace(/<\/w:hyperlink>/g, ']')
      .replace(/<w:instrText[^>]*>[^<]*<\/w:instrText>/g, '')
      .replace(/<(?!\/?w:t\b)[^>]*>/g, '')
      .replace(/<\/?w:t\b[^>]*>/g, ''),
  );

it('docx from LibreOffice (Apertium en→es): a link inside a sentence is translated with the sentence, the link kept around its words', async () => {
  const { bytes } = await translateFile(t, 'hyperlinks.docx', fixture('hyperlinks.docx'), ES);
  const xml = documentXml(bytes);
  const texts = paragraphs(xml);
  // One sentence: "antes" stays lower case, "la guía" agrees (before: "Leído el [Guía de usuario] Antes de …").
  expect(texts[0]).toBe('Leído la [guía de usuario] antes de que empiezas la máquina.');
  expect(xml).toMatch(
    /<w:hyperlink r:id="rId2"><w:r><w:rPr><w:rStyle w:val="InternetLink"\/><\/w:rPr><w:t[^>]*>guía de usuario</,
  );
  // A bold word inside a link: still one sentence, both runs (and the space between) in one link.
  expect(texts[1]).toBe('La casa es grande y el [jardín de la casa] es verde.');
  expect(xml.match(/<w:hyperlink r:id="rId3">/g)?.length).toBe(1);
  // A PAGE field is one code with its result (Word computes it), in its sentence.
  expect(texts[2]).toBe('El gato es encima página 1 del libro.');
  expect(xml).toMatch(/encima página <\/w:t><\/w:r><w:r><w:rPr><\/w:rPr><w:fldChar w:fldCharType="begin">/);
  expect(texts[3]).toBe('Escribe a [la oficina]. El perro es negro.');
});

it('docx with a link written as a HYPERLINK field (as Word writes pasted links): the field is a span around the translated link text', async () => {
  // The LibreOffice file's last link, rewritten the way Word stores a HYPERLINK field.
  const entries = unzipSync(fixture('hyperlinks.docx'));
  const field = (type: string) => `<w:r><w:fldChar w:fldCharType="${type}"/></w:r>`;
  entries['word/document.xml'] = strToU8(
    strFromU8(entries['word/document.xml']!).replace(
      /<w:hyperlink r:id="rId4">([\s\S]*?)<\/w:hyperlink>/,
      (_, runs: string) =>
        `${field('begin')}<w:r><w:instrText xml:space="preserve"> HYPERLINK "mailto:info@example.com" </w:instrText></w:r>${field('separate')}${runs}${field('end')}`,
    ),
  );
  const { bytes } = await translateFile(t, 'field-link.docx', zipSync(entries), ES);
  const xml = documentXml(bytes);
  expect(paragraphs(xml)[3]).toBe('Escribe a la oficina. El perro es negro.');
  expect(xml).toMatch(
    /Escribe a <\/w:t><\/w:r><w:r><w:fldChar w:fldCharType="begin"\/><\/w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "mailto:info@example.com" <\/w:instrText><\/w:r><w:r><w:fldChar w:fldCharType="separate"\/><\/w:r><w:r><w:rPr><w:rStyle w:val="InternetLink"\/><\/w:rPr><w:t[^>]*>la oficina<\/w:t><\/w:r><w:r><w:fldChar w:fldCharType="end"\/><\/w:r>/,
  );
});

it('pptx (pptxgenjs): a link inside a sentence is one code of the sentence', async () => {
  const pptx = new PptxGenJS();
  pptx
    .addSlide()
    .addText(
      [
        { text: 'Read the ' },
        { text: 'user guide', options: { hyperlink: { url: 'https://example.com/guide' } } },
        { text: ' before you start the machine.' },
      ],
      { x: 1, y: 1, w: 8, h: 1 },
    );
  const source = (await pptx.write({ outputType: 'uint8array' })) as Uint8Array;
  const { bytes } = await translateFile(t, 'links.pptx', source, ES);
  const slide = strFromU8(unzipSync(bytes)['ppt/slides/slide1.xml']!);
  const text = [...slide.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map(([, run]) => run).join('');
  expect(text).toBe('Leído la guía de usuario antes de que empiezas la máquina.');
  expect(slide).toMatch(
    /<a:hlinkClick r:id="[^"]+"[^>]*>(?:(?!<a:t>)[\s\S])*<\/a:rPr><a:t>guía de usuario<\/a:t>/,
  );
});
