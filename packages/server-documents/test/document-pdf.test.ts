import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mammoth from 'mammoth';
import { decodePDFRawStream, PDFDocument, PDFRawStream, StandardFonts } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Two pages: a heading and a paragraph of two lines, then a page with one sentence and a rectangle. */
async function leaflet(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([595, 842]);
  first.drawText('The house is big.', { x: 72, y: 760, size: 24, font });
  first.drawText('Good morning, my friend.', { x: 72, y: 700, size: 12, font });
  first.drawText('The dog is in the garden.', { x: 72, y: 686, size: 12, font });
  const second = pdf.addPage([595, 842]);
  second.drawRectangle({ x: 60, y: 600, width: 200, height: 100 });
  second.drawText('The cat is black.', { x: 72, y: 500, size: 14, font });
  return pdf.save();
}

/** The text of each page, as pdf.js reads it. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages;
}

/** Every stream of the file, decoded (latin1): what is in the file, referenced from a page or not. */
async function streamsOf(bytes: Uint8Array): Promise<string[]> {
  const document = await PDFDocument.load(bytes);
  return document.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFRawStream ? [decodePDFRawStream(object).decode()] : []))
    .map((data) => Buffer.from(data).toString('latin1'));
}

const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex').toUpperCase();

describe('pdf documents', () => {
  it('pdf with Apertium en→es: same pages, the Spanish text in place of the English, billed 50,000', async () => {
    const { bytes, final } = await translateFile(t, 'leaflet.pdf', await leaflet(), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    expect(final.billed_characters).toBe(50_000);
    const pages = await pagesOf(bytes);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('La casa es grande.');
    expect(pages[0]).toMatch(/Buenos días, mi amigo/);
    expect(pages[1]).toContain('El gato es negro.');
    expect(pages.join(' ')).not.toMatch(/house|morning|cat is/);
    // The English is gone from the file (not only hidden), the rectangle drawn on page 2 is still there.
    const streams = await streamsOf(bytes);
    expect(streams.filter((data) => /house|cat is/.test(data) || data.includes(hex('The cat')))).toEqual([]);
    expect(streams.some((data) => data.includes('60 600 cm'))).toBe(true);
    const reopened = await PDFDocument.load(bytes);
    expect(reopened.getPage(0).getSize()).toEqual({ width: 595, height: 842 });
  });

  it('pdf with the pseudo engine: every block pseudo-localized, in a font that covers it', async () => {
    const { bytes } = await translateFile(t, 'leaflet.pdf', await leaflet());
    const pages = await pagesOf(bytes);
    expect(pages[0]).toContain('[Ţĥé ĥööûûšéé îîš ƀîîĝ.]');
    expect(pages[1]).toContain('[Ţĥé');
    expect(pages.join(' ')).not.toContain('The house');
  });

  it('pdf with output_format=docx (Apertium en→es): a DOCX mammoth reads, one paragraph per block', async () => {
    const { bytes } = await translateFile(t, 'leaflet.pdf', await leaflet(), {
      target_lang: 'ES',
      source_lang: 'EN',
      output_format: 'docx',
    });
    const { value } = await mammoth.extractRawText({ buffer: bytes });
    const paragraphs = value.split('\n').filter((line) => line.trim() !== '');
    expect(paragraphs[0]).toBe('La casa es grande.');
    expect(paragraphs[1]).toMatch(/^Buenos días, mi amigo\. .*jardín/);
    expect(paragraphs[2]).toBe('El gato es negro.');
    expect(paragraphs).toHaveLength(3);
    // LibreOffice headless opens it too (converted to text).
    const dir = mkdtempSync(join(tmpdir(), 'glossa-pdf-docx-'));
    try {
      writeFileSync(join(dir, 'leaflet.docx'), bytes);
      execFileSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${dir}/profile`,
          '--convert-to',
          'txt:Text',
          '--outdir',
          dir,
          join(dir, 'leaflet.docx'),
        ],
        { stdio: 'pipe', timeout: 120_000 },
      );
      expect(readFileSync(join(dir, 'leaflet.txt'), 'utf8')).toContain('El gato es negro.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('form fields (widgets) keep their values: data, not content (documented limit)', async () => {
    const pdf = await PDFDocument.load(await leaflet());
    const field = pdf.getForm().createTextField('name');
    field.setText('The dog is in the garden.');
    field.addToPage(pdf.getPage(1), { x: 72, y: 300, width: 300, height: 20 });
    const { bytes } = await translateFile(t, 'form.pdf', await pdf.save(), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    const reopened = await PDFDocument.load(bytes);
    expect(reopened.getForm().getTextField('name').getText()).toBe('The dog is in the garden.');
    expect((await pagesOf(bytes))[1]).toContain('El gato es negro.');
  });

  it('a translation with characters no DejaVu face covers: the job says so (no PDF of empty boxes); docx works', async () => {
    const fields = {
      target_lang: 'ES',
      source_lang: 'EN',
      glossary_id: await t.glossary('en', 'es', 'house\t家'),
    };
    const uploaded = await upload(t, 'leaflet.pdf', await leaflet(), fields);
    expect(await waitDone(t, uploaded.data)).toMatchObject({
      status: 'error',
      error_message:
        "The translation has characters the server's PDF fonts (DejaVu) do not cover: 家. A PDF would show them as empty boxes; ask for output_format=docx instead.",
    });
    const { bytes } = await translateFile(t, 'leaflet.pdf', await leaflet(), {
      ...fields,
      output_format: 'docx',
    });
    expect((await mammoth.extractRawText({ buffer: bytes })).value).toContain('家');
  });

  it('a PDF of 501 pages: 413', async () => {
    const pdf = await PDFDocument.create();
    for (let page = 0; page < 501; page++) pdf.addPage([100, 100]);
    const reply = await upload(t, 'long.pdf', await pdf.save());
    expect([reply.status, reply.data.message]).toEqual([413, 'PDF documents may have at most 500 pages.']);
  });

  it('an encrypted PDF (qpdf, empty user password: readable, not rewritable): 400 at upload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'glossa-pdf-encrypted-'));
    try {
      writeFileSync(join(dir, 'plain.pdf'), await leaflet());
      execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', 'plain.pdf', 'locked.pdf'], { cwd: dir });
      const reply = await upload(t, 'locked.pdf', readFileSync(join(dir, 'locked.pdf')));
      expect([reply.status, reply.data.message]).toEqual([
        400,
        'The PDF document is encrypted: it cannot be rewritten. Remove its protection and send it again.',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a PDF with no text layer (only drawings): 400 at upload, nothing billed', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]).drawRectangle({ x: 60, y: 600, width: 200, height: 100 });
    const before = (await t.call('/v2/usage')).data.character_count;
    const reply = await upload(t, 'scan.pdf', await pdf.save());
    expect([reply.status, reply.data.message]).toEqual([
      400,
      'The PDF document has no text layer (scanned pages?): there is no text to translate. Send the pages as PNG or JPEG images to have them read by OCR.',
    ]);
    expect((await t.call('/v2/usage')).data.character_count).toBe(before);
  });

  it('a broken xref (wrong startxref and offsets) is recovered and translated; a truncated file is a 400 at upload', async () => {
    const good = Buffer.from(
      await (await PDFDocument.load(await leaflet())).save({ useObjectStreams: false }),
    );
    const broken = Buffer.from(
      good
        .toString('latin1')
        .replace(/startxref\s+\d+/, 'startxref\n999999')
        .replace(
          /(\d{10}) 00000 n/g,
          (_, offset) => `${String(Number(offset) + 7).padStart(10, '0')} 00000 n`,
        ),
      'latin1',
    );
    const { bytes } = await translateFile(t, 'broken.pdf', broken, { target_lang: 'ES', source_lang: 'EN' });
    expect((await pagesOf(bytes))[1]).toContain('El gato es negro.');
    const truncated = await upload(t, 'cut.pdf', good.subarray(0, Math.floor(good.length * 0.6)));
    expect([truncated.status, truncated.data.message]).toEqual([
      400,
      'The PDF document is not a readable PDF.',
    ]);
  });

  it('bytes that are no PDF: 400, nothing created', async () => {
    const reply = await upload(t, 'leaflet.pdf', 'not a pdf');
    expect([reply.status, reply.data.message]).toEqual([400, 'The PDF document is not a readable PDF.']);
  });
});
