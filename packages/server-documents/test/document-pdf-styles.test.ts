import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { strFromU8, unzipSync } from 'fflate';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
  rgb,
  StandardFonts,
  setTextRenderingMode,
  TextRenderingMode,
} from 'pdf-lib';
import { AnnotationMode, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { streamsOf, styledRuns } from './document-pdf-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
/** The leaflet below translated with Apertium en→es (once, for every test). */
let translated: Buffer;
beforeAll(async () => {
  t = await startTestServer();
  ({ bytes: translated } = await translateFile(t, 'styled.pdf', await styledLeaflet(), {
    target_lang: 'ES',
    source_lang: 'EN',
  }));
});
afterAll(() => t.close());

/**
 * One page: a bold red heading, a Times paragraph with one blue italic word, a Courier line, a sentence
 * inside a form XObject (an embedded page), a FreeText box and a sticky note.
 */
async function styledLeaflet(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const times = await pdf.embedFont(StandardFonts.TimesRoman);
  const timesItalic = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const courier = await pdf.embedFont(StandardFonts.Courier);
  const page = pdf.addPage([595, 842]);
  page.drawText('The house is big.', { x: 72, y: 760, size: 24, font: bold, color: rgb(1, 0, 0) });
  const start = 'The dog is ';
  const startWidth = times.widthOfTextAtSize(start, 12);
  page.drawText(start, { x: 72, y: 700, size: 12, font: times });
  page.drawText('very', { x: 72 + startWidth, y: 700, size: 12, font: timesItalic, color: rgb(0, 0, 1) });
  const endX = 72 + startWidth + timesItalic.widthOfTextAtSize('very', 12);
  page.drawText(' big.', { x: endX, y: 700, size: 12, font: times });
  page.drawText('The cat is black.', { x: 72, y: 640, size: 12, font: courier, color: rgb(0, 0.5, 0) });

  const source = await PDFDocument.create();
  const helvetica = await source.embedFont(StandardFonts.Helvetica);
  source.addPage([300, 100]).drawText('The garden is green.', { x: 10, y: 50, size: 14, font: helvetica });
  const [form] = await pdf.embedPdf(await source.save());
  page.drawPage(form!, { x: 72, y: 500 });

  const annotationFont = pdf.context.register(
    pdf.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }),
  );
  const appearance = pdf.context.register(
    pdf.context.stream(
      '0.9 0.9 0.9 rg 0 0 200 40 re f BT /Helv 12 Tf 0 0 1 rg 4 16 Td (Good morning) Tj ET',
      {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 200, 40],
        Resources: { Font: { Helv: annotationFont } },
      },
    ),
  );
  const freeText = pdf.context.register(
    pdf.context.obj({
      Type: 'Annot',
      Subtype: 'FreeText',
      Rect: [72, 300, 272, 340],
      Contents: PDFString.of('Good morning'),
      DA: PDFString.of('/Helv 12 Tf 0 0 1 rg'),
      AP: { N: appearance },
    }),
  );
  const note = pdf.context.register(
    pdf.context.obj({
      Type: 'Annot',
      Subtype: 'Text',
      Rect: [400, 300, 420, 320],
      Contents: PDFHexString.fromText('The house is big.'),
    }),
  );
  page.node.set(PDFName.of('Annots'), pdf.context.obj([freeText, note]));
  return pdf.save();
}

describe('pdf styles, form XObjects and annotations', () => {
  it('bold, italic, serif, mono and colours are kept: each run drawn in the matching DejaVu face and colour', async () => {
    const bytes = translated;
    const runs = await styledRuns(bytes);
    const find = (text: string) => runs.find((run) => run.text.includes(text));
    expect(find('La casa es grande.')).toMatchObject({ font: 'DejaVuSans-Bold', color: [255, 0, 0] });
    // The italic word keeps its face and colour inside the translated sentence; the rest is Serif in black.
    expect(find('El perro es')).toMatchObject({ font: 'DejaVuSerif', color: [0, 0, 0] });
    expect(find('muy')).toMatchObject({ text: 'muy', font: 'DejaVuSerif-Italic', color: [0, 0, 255] });
    expect(runs.find((run) => run.text.trim() === 'grande.')).toMatchObject({
      font: 'DejaVuSerif',
      color: [0, 0, 0],
    });
    expect(find('El gato es negro.')).toMatchObject({ font: 'DejaVuSansMono', color: [0, 128, 0] });
    expect(runs.map((run) => run.text).join(' ')).not.toMatch(/house|dog|cat|very/);
  });

  it('text in a form XObject is translated, and removed from the XObject', async () => {
    const bytes = translated;
    const runs = await styledRuns(bytes);
    expect(runs.filter((run) => /jardín|garden/.test(run.text)).map((run) => run.text)).toEqual([
      'El jardín es verde.',
    ]);
    const streams = await streamsOf(bytes);
    expect(streams.filter((data) => /garden|house|Good morning/.test(data))).toEqual([]);
  });

  it('a FreeText box and a note are translated: contents and the box as the page shows it', async () => {
    const bytes = translated;
    const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
    const annotations = await (await document.getPage(1)).getAnnotations();
    await document.destroy();
    expect(annotations.map((annotation) => [annotation.subtype, annotation.contentsObj.str])).toEqual([
      ['FreeText', 'Buenos días'],
      ['Text', 'La casa es grande.'],
    ]);
    const shown = await styledRuns(bytes, AnnotationMode.ENABLE);
    const box = shown.find((run) => run.text.includes('Buenos'));
    expect(box).toMatchObject({ text: 'Buenos días', font: 'DejaVuSans', color: [0, 0, 255] });
    expect(shown.map((run) => run.text).join(' ')).not.toContain('Good morning');
  });

  it('output_format=docx: the styles become run properties (bold, italic, colour); annotation texts follow', async () => {
    const { bytes } = await translateFile(t, 'styled.pdf', await styledLeaflet(), {
      target_lang: 'ES',
      source_lang: 'EN',
      output_format: 'docx',
    });
    const xml = strFromU8(unzipSync(bytes)['word/document.xml']!);
    const runs = [
      ...xml.matchAll(/<w:r><w:rPr>(.*?)<\/w:rPr><w:t xml:space="preserve">(.*?)<\/w:t><\/w:r>/g),
    ].map(([, properties, text]) => [text, properties!.replace(/<w:sz w:val="\d+"\/>/, '')]);
    expect(runs.slice(0, 4)).toEqual([
      ['La casa es grande.', '<w:b/><w:color w:val="FF0000"/>'],
      ['El perro es ', ''],
      ['muy', '<w:i/><w:color w:val="0000FF"/>'],
      [' grande.', ''],
    ]);
    // The annotations' texts follow the page's blocks, in italics.
    expect(runs.slice(-2)).toEqual([
      ['Buenos días', '<w:i/>'],
      ['La casa es grande.', '<w:i/>'],
    ]);
  });

  it('invisible text (the text layer of a scanned page) is translated and stays invisible', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawRectangle({ x: 60, y: 600, width: 300, height: 100, color: rgb(0.9, 0.9, 0.8) });
    page.drawText('The dog is in the garden.', { x: 72, y: 500, size: 12, font });
    page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
    page.drawText('The house is big.', { x: 72, y: 640, size: 18, font });
    const { bytes } = await translateFile(t, 'scan.pdf', await pdf.save(), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    const runs = await styledRuns(bytes);
    expect(runs.find((run) => run.text.includes('La casa es grande.'))?.opacity).toBe(0);
    expect(runs.find((run) => run.text.includes('El perro'))?.opacity).toBe(1);
  });

  it('a PDF written by LibreOffice (subset TrueType fonts, TJ arrays): styles kept, a mono line its own block', async () => {
    const source = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [new TextRun({ text: 'The house is big.', bold: true, color: 'C00000', size: 36 })],
            }),
            new Paragraph({
              children: [
                new TextRun({ text: 'The dog is ' }),
                new TextRun({ text: 'very', italics: true, color: '0000FF' }),
                new TextRun({ text: ' big.' }),
              ],
            }),
            new Paragraph({
              children: [new TextRun({ text: 'The cat is black.', font: 'Liberation Mono' })],
            }),
          ],
        },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'glossa-pdf-lo-'));
    let pdf: Buffer;
    try {
      writeFileSync(join(dir, 'styled.docx'), await Packer.toBuffer(source));
      execFileSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${dir}/profile`,
          '--convert-to',
          'pdf',
          '--outdir',
          dir,
          join(dir, 'styled.docx'),
        ],
        { stdio: 'pipe', timeout: 120_000 },
      );
      pdf = readFileSync(join(dir, 'styled.pdf'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const { bytes } = await translateFile(t, 'office.pdf', pdf, { target_lang: 'ES', source_lang: 'EN' });
    const runs = (await styledRuns(bytes)).map(({ text, font, color }) => [text, font, color.join(',')]);
    expect(runs).toEqual([
      ['La casa es grande.', 'DejaVuSerif-Bold', '192,0,0'],
      ['El perro es', 'DejaVuSerif', '0,0,0'],
      ['muy', 'DejaVuSerif-Italic', '0,0,255'],
      ['grande.', 'DejaVuSerif', '0,0,0'],
      ['El gato es negro.', 'DejaVuSansMono', '0,0,0'],
    ]);
  }, 120_000);

  it('TeX fonts name their style in a code: CMBX12 is drawn bold serif, CMR10 serif, CMTT10 mono', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    const fonts = [StandardFonts.HelveticaBold, StandardFonts.Helvetica, StandardFonts.Courier];
    const [bold, roman, typewriter] = await Promise.all(fonts.map((name) => pdf.embedFont(name)));
    page.drawText('The house is big.', { x: 72, y: 760, size: 20, font: bold! });
    page.drawText('The dog is in the garden.', { x: 72, y: 700, size: 12, font: roman! });
    page.drawText('The cat is black.', { x: 72, y: 640, size: 12, font: typewriter! });
    // The standard fonts renamed as a TeX document names its (padded with spaces: the offsets stay right).
    let latin1 = Buffer.from(await pdf.save({ useObjectStreams: false })).toString('latin1');
    for (const [from, to] of [
      ['/Helvetica-Bold', '/CMBX12'],
      ['/Helvetica', '/CMR10'],
      ['/Courier', '/CMTT10'],
    ] as const)
      latin1 = latin1.replace(`/BaseFont ${from}`, `/BaseFont ${to}${' '.repeat(from.length - to.length)}`);
    const { bytes } = await translateFile(t, 'tex.pdf', Buffer.from(latin1, 'latin1'), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    const runs = (await styledRuns(bytes)).map(({ text, font }) => [text, font]);
    expect(runs).toEqual([
      ['La casa es grande.', 'DejaVuSerif-Bold'],
      ['El perro es en el jardín.', 'DejaVuSerif'],
      ['El gato es negro.', 'DejaVuSansMono'],
    ]);
  });
});
