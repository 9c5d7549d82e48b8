import { pseudoLocalize } from '@glossa/protocol';
import * as docx from 'docx';
import { strToU8, unzipSync, zipSync } from 'fflate';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const xa = (text: string) => pseudoLocalize(text, 'en-XA');
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;

const BEFORE = 'Read the note ';
const AFTER = ' beside this paragraph about backups.';
const BOXED = 'Remember to save often.';

/** A text box holding one paragraph, as Word writes it: a DrawingML shape with a VML fallback. */
const textBox = (inner: string) =>
  '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>' +
  '<wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="1828800" cy="457200"/>' +
  '<wp:docPr id="1" name="Text Box 1"/>' +
  '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
  '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">' +
  '<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="457200"/></a:xfrm>' +
  '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>' +
  `<wps:txbx><w:txbxContent>${inner}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>` +
  '</a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice>' +
  '<mc:Fallback><w:pict><v:shape id="Text Box 1" type="#_x0000_t202" style="width:144pt;height:36pt">' +
  `<v:textbox><w:txbxContent>${inner}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>` +
  '</mc:AlternateContent></w:r>';

/** A docx whose first paragraph has text of its own around a text box with a paragraph of its own. */
async function textBoxDocx(): Promise<{ bytes: Uint8Array; entries: Record<string, Uint8Array> }> {
  const generated = await docx.Packer.toBuffer(
    new docx.Document({
      sections: [{ children: [new docx.Paragraph('PLACEHOLDER'), new docx.Paragraph('2024-01-01')] }],
    }),
  );
  const entries = unzipSync(generated);
  const xml = new TextDecoder().decode(entries['word/document.xml']);
  const paragraph = `<w:p>${run(BEFORE)}${textBox(`<w:p>${run(BOXED)}</w:p>`)}${run(AFTER)}</w:p>`;
  const replaced = xml.replace(/<w:p>(?:(?!<w:p>).)*?PLACEHOLDER.*?<\/w:p>/, paragraph);
  expect(replaced).not.toBe(xml);
  entries['word/document.xml'] = strToU8(replaced);
  return { bytes: zipSync(entries), entries };
}

describe('docx text boxes through the pseudo engine (en-XA)', () => {
  it('docx: a paragraph with a text box translates its own runs and the text box paragraphs, each a segment', async () => {
    const source = await textBoxDocx();
    const { bytes } = await translateFile(t, 'boxed.docx', source.bytes);
    const out = unzipSync(bytes);

    // The outer paragraph is one segment with the text box run as a code; the boxed paragraph is its own.
    const [before, after] = xa(`${BEFORE}<x id="1"/>${AFTER}`).split('<x id="1"/>') as [string, string];
    const boxed = `<w:p>${run(xa(BOXED))}</w:p>`;
    const expected = new TextDecoder()
      .decode(source.entries['word/document.xml'])
      .replace(
        `<w:p>${run(BEFORE)}${textBox(`<w:p>${run(BOXED)}</w:p>`)}${run(AFTER)}</w:p>`,
        `<w:p>${run(before)}${textBox(boxed)}${run(after)}</w:p>`,
      );
    expect(before).not.toBe(BEFORE);
    expect(xa(BOXED)).not.toBe(BOXED);
    expect(new TextDecoder().decode(out['word/document.xml'])).toBe(expected);

    // Nothing else in the package changed.
    expect(Object.keys(out).sort()).toEqual(Object.keys(source.entries).sort());
    for (const name of Object.keys(source.entries))
      if (name !== 'word/document.xml') expect(out[name], name).toEqual(source.entries[name]);

    // The document still opens, with both texts translated.
    const text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
    expect(text).toContain(before.trim());
    expect(text).toContain(after.trim());
    expect(text).toContain(xa(BOXED));
    expect(text).toContain('2024-01-01');
    expect(text).not.toContain(BOXED);
    expect(text).not.toContain(AFTER);
  });
});
