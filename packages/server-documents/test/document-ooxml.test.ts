import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pseudoLocalize } from '@glossa/protocol';
import * as docx from 'docx';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import PptxModule from 'pptxgenjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

// A CommonJS package typed as an ES default export: under NodeNext the default import is its namespace.
const PptxGenJS = ((PptxModule as unknown as { default?: unknown }).default ??
  PptxModule) as typeof PptxModule.default;

let t: TestServer;
const work = mkdtempSync(join(tmpdir(), 'glossa-ooxml-'));
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const xa = (text: string) => pseudoLocalize(text, 'en-XA');
/** `xa` of a code-form text, with each `<g id="N">…</g>` written as the given open and close tags. */
const xaTags = (form: string, tags: Record<string, [string, string]>) => {
  let out = xa(form);
  for (const [id, [open, close]] of Object.entries(tags)) {
    const start = out.indexOf(`<g id="${id}">`);
    const end = out.indexOf('</g>', start);
    out =
      out.slice(0, start) +
      open +
      out.slice(start + `<g id="${id}">`.length, end) +
      close +
      out.slice(end + 4);
  }
  return out;
};

/** LibreOffice headless converts the file; returns the converted bytes. */
function libreOffice(name: string, bytes: Uint8Array, to: string): Buffer {
  const dir = mkdtempSync(join(work, 'lo-'));
  writeFileSync(join(dir, name), bytes);
  execFileSync(
    'soffice',
    [
      '--headless',
      `-env:UserInstallation=file://${dir}/profile`,
      '--convert-to',
      to,
      '--outdir',
      dir,
      join(dir, name),
    ],
    {
      stdio: 'pipe',
      timeout: 120_000,
    },
  );
  return readFileSync(join(dir, name.replace(/\.[^.]+$/, `.${to.split(':')[0]}`)));
}

async function sampleDocx(): Promise<Buffer> {
  const document = new docx.Document({
    sections: [
      {
        headers: { default: new docx.Header({ children: [new docx.Paragraph('Company report')] }) },
        children: [
          new docx.Paragraph({
            children: [
              new docx.TextRun('Click the '),
              new docx.TextRun({ text: 'Save', bold: true }),
              new docx.TextRun(' button.'),
            ],
          }),
          new docx.Paragraph({
            children: [
              new docx.TextRun('Read the '),
              new docx.ExternalHyperlink({
                link: 'https://example.com/guide',
                children: [new docx.TextRun('user guide')],
              }),
              new docx.TextRun(' first.'),
            ],
          }),
          new docx.Paragraph({
            children: [new docx.TextRun('Name'), new docx.TextRun({ children: [new docx.Tab(), 'Value'] })],
          }),
          new docx.Paragraph({ children: [new docx.TextRun('2024-01-01')] }),
          new docx.Table({
            rows: [
              new docx.TableRow({
                children: [new docx.TableCell({ children: [new docx.Paragraph('Green apples')] })],
              }),
            ],
          }),
        ],
      },
    ],
  });
  return docx.Packer.toBuffer(document);
}

describe('OOXML through the pseudo engine (en-XA)', () => {
  it('docx: runs merged with formatting as codes, links, headers, tables; reopens in mammoth; billed 50,000', async () => {
    const { bytes, final } = await translateFile(t, 'report.docx', await sampleDocx());
    expect(final.billed_characters).toBe(50_000);
    const html = (await mammoth.convertToHtml({ buffer: bytes })).value;
    expect(html).toContain(
      `<p>${xaTags('Click the <g id="1">Save</g> button.', { 1: ['<strong>', '</strong>'] })}</p>`,
    );
    expect(html).toContain(
      `<p>${xaTags('Read the <g id="1">user guide</g> first.', { 1: ['<a href="https://example.com/guide">', '</a>'] })}</p>`,
    );
    expect(html).toContain('<p>2024-01-01</p>');
    expect(html).toContain(`<td><p>${xa('Green apples')}</p></td>`);
    const raw = unzipSync(bytes);
    const header = Object.keys(raw).find((name) => /^word\/header\d*\.xml$/.test(name))!;
    expect(new TextDecoder().decode(raw[header])).toContain(xa('Company report'));
    expect(new TextDecoder().decode(raw['word/document.xml'])).toContain('<w:tab/>');
  });

  it('docx: LibreOffice opens the translation and converts it', async () => {
    const { bytes } = await translateFile(t, 'report.docx', await sampleDocx());
    const text = libreOffice('report.docx', bytes, 'txt:Text').toString('utf8');
    expect(text).toContain(xa('Click the <g id="1">Save</g> button.').replace(/<\/?g[^>]*>/g, ''));
    expect(text).toContain('2024-01-01');
  }, 150_000);

  it('docx en→es with Apertium: the text is Spanish, the bold run stays bold', async () => {
    const { bytes } = await translateFile(t, 'report.docx', await sampleDocx(), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    const html = (await mammoth.convertToHtml({ buffer: bytes })).value;
    expect(html).toMatch(/<p>[^<]*<strong>[^<]+<\/strong>[^<]*\.<\/p>/);
    expect(html).toContain('<td><p>Manzanas verdes</p></td>');
    expect(html).not.toContain('Green apples');
    expect(html).not.toContain('Click the');
  }, 60_000);

  it('xlsx: shared and rich strings translated; numbers, formulas and dates untouched; LibreOffice reads it', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Prices');
    sheet.addRow(['Total price', 42, { formula: 'B1*2', result: 84 }]);
    sheet.addRow([
      { richText: [{ text: 'Fresh ' }, { text: 'green', font: { bold: true } }, { text: ' apples' }] },
      3.5,
    ]);
    sheet.addRow(['Total price', new Date(Date.UTC(2024, 0, 2))]);
    const { bytes, final } = await translateFile(
      t,
      'prices.xlsx',
      Buffer.from(await workbook.xlsx.writeBuffer()),
    );
    expect(final.billed_characters).toBe(50_000);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const read = out.getWorksheet('Prices')!;
    expect(read.getCell('A1').value).toBe(xa('Total price'));
    expect(read.getCell('B1').value).toBe(42);
    expect(read.getCell('C1').value).toEqual({ formula: 'B1*2', result: 84 });
    expect(read.getCell('B2').value).toBe(3.5);
    expect(read.getCell('A3').value).toBe(xa('Total price'));
    expect(read.getCell('B3').value).toEqual(new Date(Date.UTC(2024, 0, 2)));
    const rich = read.getCell('A2').value as { richText: { text: string; font?: { bold?: boolean } }[] };
    expect(rich.richText.map((run) => run.text).join('')).toBe(
      xa('Fresh <g id="1">green</g> apples').replace(/<\/?g[^>]*>/g, ''),
    );
    expect(rich.richText.find((run) => run.font?.bold)?.text).toBe(
      xaTags('Fresh <g id="1">green</g> apples', { 1: ['\u0001', '\u0002'] })
        .split('\u0001')[1]!
        .split('\u0002')[0],
    );
    const csv = libreOffice('prices.xlsx', bytes, 'csv:Text - txt - csv (StarCalc):44,34,76').toString(
      'utf8',
    );
    expect(csv.split('\n')[0]).toBe(`${xa('Total price')},42,84`);
  }, 150_000);

  it('pptx: slide text translated with run formatting; LibreOffice converts it to PDF', async () => {
    const deck = new PptxGenJS();
    const slide = deck.addSlide();
    slide.addText(
      [{ text: 'Quarterly ' }, { text: 'results', options: { bold: true } }, { text: ' are ready.' }],
      { x: 1, y: 1, w: 8, h: 1 },
    );
    slide.addText('42%', { x: 1, y: 2, w: 2, h: 1 });
    slide.addNotes('Speak slowly.');
    const source = (await deck.write({ outputType: 'nodebuffer' })) as Buffer;
    const { bytes, final } = await translateFile(t, 'deck.pptx', source);
    expect(final.billed_characters).toBe(50_000);
    const parts = unzipSync(bytes);
    const slideXml = new TextDecoder().decode(parts['ppt/slides/slide1.xml']);
    const form = xa('Quarterly <g id="1">results</g> are ready.');
    const [before, rest] = form.split('<g id="1">') as [string, string];
    const [bold, after] = rest.split('</g>') as [string, string];
    expect(slideXml).toContain(`<a:t>${before}</a:t>`);
    expect(slideXml).toMatch(
      new RegExp(`<a:rPr[^>]*b="1"[^>]*>(?:(?!</a:r>).)*<a:t>${bold.replace(/[[\]().*+?]/g, '\\$&')}</a:t>`),
    );
    expect(slideXml).toContain(`<a:t>${after}</a:t>`);
    expect(slideXml).toContain('<a:t>42%</a:t>');
    const pdf = libreOffice('deck.pptx', bytes, 'pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  }, 150_000);
});
