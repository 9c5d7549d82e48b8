/**
 * Growth benchmark of the full server's features (issue 31), the dimensions the spine's
 * packages/server/bench/growth-endpoints.ts cannot drive: a real full server (`growth-features-server.ts`, a
 * child process, every feature package) over HTTP, inputs doubled along each dimension up to the limits:
 * - document size: `.txt` (limit 1 MiB) and `.html` (limit 5 MiB) bytes, `POST /v2/document` to en-XA (the
 *   pseudo engine: the format's own cost, not Apertium's) until done, then the result downloaded;
 * - document pages: `.docx` (page breaks) and `.pdf` (MAX_PDF_PAGES = 500) pages, likewise;
 * - quality segments (count, up to MAX_EVALUATION_SEGMENTS) and one segment's length (up to the 1 MiB
 *   body limit), `POST /v3/quality/evaluate`;
 * - write text length (`POST /v2/write/rephrase`, en-US, one text up to the 10 KiB body limit);
 * - voice duration (`POST /v3/voice/jobs` of a 16 kHz WAV of English speech by flite, polled until done).
 * Per size: wall time (median of 3 for the cheap requests, else once) and the server's peak RSS above its
 * RSS before (VmHWM after /proc/<pid>/clear_refs; the helper processes (Hunspell, the recognizer, ffmpeg)
 * are not the server's and not counted). Per dimension: the fitted exponents (`growthExponent`).
 *   pnpm --filter @glossa/server-full bench:growth        (ONLY=<regexp>: only the dimensions it matches)
 * pdf-lib and docx (to make the inputs) are read from @glossa/server-documents' dependencies.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_EVALUATION_SEGMENTS } from '../../protocol/src/index.js';
import { GrowthRun, jsonClient, startBenchServer, until } from '../../server/bench/growth-harness.js';
import { MAX_PDF_PAGES } from '../../server-documents/src/formats/pdf-text.js';
import { prose } from '../test/prose.js';

const here = new URL('.', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-growth-features-'));
console.log('starting the full server (its language tools load before /ready) …');
const server = await startBenchServer<{ url: string; key: string }>(join(here, 'growth-features-server.ts'), {
  dataDir,
});
const { url, key } = server.ready;
const call = jsonClient(url, key);
const growth = new GrowthRun(() => server.child.pid!);
const KiB = 1024;

// --- documents -------------------------------------------------------------------------------------------

/** Uploads `bytes` as `name`, translates it to en-XA, waits until done and downloads the result. */
async function translateDocument(name: string, bytes: Uint8Array | string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  form.append('source_lang', 'EN');
  form.append('target_lang', 'en-XA');
  const response = await fetch(`${url}/v2/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Service-Auth-Key ${key}` },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`upload ${name}: ${response.status} ${text.slice(0, 300)}`);
  const ids = JSON.parse(text) as { document_id: string; document_key: string };
  const body = { document_key: ids.document_key };
  await until(async () => {
    const status = (await call(`/v2/document/${ids.document_id}`, body)) as { status: string };
    if (status.status === 'error') throw new Error(`${name}: ${JSON.stringify(status)}`);
    return status.status === 'done' ? true : undefined;
  }, 50);
  const result = await fetch(`${url}/v2/document/${ids.document_id}/result`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const translated = await result.arrayBuffer();
  if (result.status !== 200 || translated.byteLength === 0)
    throw new Error(`result of ${name}: ${result.status}, ${translated.byteLength} bytes`);
}

const html = (bytes: number) => {
  const head = '<!doctype html><html><head><title>Growth</title></head><body>\n';
  const tail = '</body></html>\n';
  const paragraphs: string[] = [];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    const paragraph = `<p>${prose(300, i * 3)} <a href="/p${i}">link ${i}</a> <b>${prose(40, i)}</b></p>\n`;
    paragraphs.push(paragraph);
    size += paragraph.length;
  }
  return (head + paragraphs.join('') + tail).slice(0, bytes - tail.length) + tail;
};

// pdf-lib and docx are dependencies of @glossa/server-documents (its tests make their inputs with them).
const fromDocuments = createRequire(new URL('../../server-documents/package.json', import.meta.url));
const load = async <T>(name: string) => (await import(pathToFileURL(fromDocuments.resolve(name)).href)) as T;
interface PdfPage {
  drawText(text: string, options: { x: number; y: number; size: number; font: unknown }): void;
}
interface PdfLib {
  PDFDocument: {
    create(): Promise<{
      embedFont(name: string): Promise<unknown>;
      addPage(size: [number, number]): PdfPage;
      save(): Promise<Uint8Array>;
    }>;
  };
  StandardFonts: { Helvetica: string };
}
interface DocxLib {
  Document: new (options: { sections: { children: unknown[] }[] }) => object;
  Paragraph: new (options: { text: string; pageBreakBefore?: boolean }) => object;
  Packer: { toBuffer(document: object): Promise<Uint8Array> };
}

/** A PDF of `pages` A4 pages, each a title and 24 lines of prose in Helvetica. */
async function pdf(pages: number): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await load<PdfLib>('pdf-lib');
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = document.addPage([595, 842]);
    page.drawText(`Page ${p + 1}: ${prose(30, p)}`, { x: 72, y: 770, size: 18, font });
    for (let line = 0; line < 24; line++)
      page.drawText(prose(80, p * 24 + line), { x: 72, y: 730 - line * 26, size: 11, font });
  }
  return document.save();
}

/** A DOCX of `pages` pages: each a page break and 6 paragraphs of prose (~2,000 characters). */
async function docx(pages: number): Promise<Uint8Array> {
  const { Document, Packer, Paragraph } = await load<DocxLib>('docx');
  const children: object[] = [];
  for (let p = 0; p < pages; p++)
    for (let k = 0; k < 6; k++)
      children.push(
        new Paragraph({ text: prose(330, p * 6 + k), ...(k === 0 ? { pageBreakBefore: true } : {}) }),
      );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/**
 * A document dimension: inputs made before each size (not measured); a small one translated first, since
 * the job runner, the pseudo engine and each format's libraries (pdf.js, fonts) start on first use.
 */
async function documentDimension(
  name: string,
  extension: string,
  sizes: number[],
  make: (size: number) => Promise<Uint8Array | string>,
): Promise<void> {
  if (!GrowthRun.selected(name)) return;
  await translateDocument(`warm.${extension}`, await make(Math.max(1, Math.round(sizes[0]! / 4))));
  let input: Uint8Array | string = '';
  await growth.dimension(
    name,
    sizes,
    (size) => translateDocument(`growth-${size}.${extension}`, input),
    1,
    async (size) => {
      input = await make(size);
    },
  );
}

const doubling = (from: number, count: number) => Array.from({ length: count }, (_, k) => from * 2 ** k);
await documentDimension(
  'document size: .txt bytes (POST /v2/document to en-XA until done, result downloaded)',
  'txt',
  doubling(16 * KiB, 7),
  async (size) => prose(size),
);
await documentDimension(
  'document size: .html bytes (likewise)',
  'html',
  doubling(80 * KiB, 7),
  async (size) => html(size),
);
await documentDimension('document pages: .docx pages (likewise)', 'docx', doubling(8, 7), docx);
await documentDimension(
  'document pages: .pdf pages (likewise)',
  'pdf',
  [32, 16, 8, 4, 2, 1].map((part) => Math.round(MAX_PDF_PAGES / part)),
  pdf,
);

// --- quality -----------------------------------------------------------------------------------------------

const evaluate = (segments: { source: string; translation: string }[]) =>
  call('/v3/quality/evaluate', { source_lang: 'en', target_lang: 'es', segments });
const QUALITY_SEGMENTS = 'quality segments (POST /v3/quality/evaluate, 1,000 characters a side)';
const QUALITY_LENGTH = 'quality segment length (POST /v3/quality/evaluate, one segment, characters a side)';
if (GrowthRun.selected(QUALITY_SEGMENTS) || GrowthRun.selected(QUALITY_LENGTH))
  await evaluate([{ source: prose(200), translation: prose(200, 1) }]);
const segmentCounts = [32, 16, 8, 4, 2, 1].map((part) => Math.round(MAX_EVALUATION_SEGMENTS / part));
await growth.dimension(QUALITY_SEGMENTS, segmentCounts, async (size) => {
  await evaluate(
    Array.from({ length: size }, (_, i) => ({ source: prose(1000, i), translation: prose(1000, i + 1) })),
  );
});
// One segment whose two sides fill the 1 MiB body at the largest size.
await growth.dimension(
  QUALITY_LENGTH,
  doubling(8 * KiB, 7).map((size) => size - 128),
  async (size) => {
    await evaluate([{ source: prose(size, 0), translation: prose(size, 1) }]);
  },
);

// --- write -------------------------------------------------------------------------------------------------

// `pnpm bench` measures a warm process: the cold first call has its own benchmark (issue 31, cold start).
const WRITE_LENGTH = 'write text length (POST /v2/write/rephrase, en-US, one text, characters)';
if (GrowthRun.selected(WRITE_LENGTH))
  await call('/v2/write/rephrase', { text: [prose(300)], target_lang: 'en-US' });
await growth.dimension(WRITE_LENGTH, [312, 625, 1250, 2500, 5000, 10_000], async (size) => {
  await call('/v2/write/rephrase', { text: [prose(size, 5)], target_lang: 'en-US' });
});

// --- voice -------------------------------------------------------------------------------------------------

/** English speech of about `seconds` seconds: flite's sentences joined (16 kHz mono, 16 bits). */
function speech(seconds: number): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-growth-voice-'));
  const file = join(dir, 'speech.wav');
  execFileSync('flite', [
    '-voice',
    'kal16',
    '-t',
    'please send me the report before the meeting tomorrow morning.',
    '-o',
    file,
  ]);
  const one = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  const rate = one.readUInt32LE(28);
  const wanted = Math.round(seconds * rate);
  const parts: Buffer[] = [];
  for (let bytes = 0; bytes < wanted; bytes += one.length - 44) parts.push(one.subarray(44));
  const data = Buffer.concat(parts).subarray(0, wanted);
  const header = Buffer.from(one.subarray(0, 44));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
async function voiceJob(audio: Buffer): Promise<void> {
  const form = new FormData();
  form.append('source_language', 'en');
  form.append('target_languages', 'es');
  form.append('file', new Blob([new Uint8Array(audio)]), 'speech.wav');
  const response = await fetch(`${url}/v3/voice/jobs`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${key}` },
    body: form,
  });
  const created = (await response.json()) as { job_id: string };
  if (response.status !== 202) throw new Error(`voice job: ${response.status} ${JSON.stringify(created)}`);
  await until(async () => {
    const job = (await call(`/v3/voice/jobs/${created.job_id}`, undefined, 'GET')) as { status: string };
    if (job.status === 'error') throw new Error(`voice job: ${JSON.stringify(job)}`);
    return job.status === 'done' ? true : undefined;
  }, 100);
  await call(`/v3/voice/jobs/${created.job_id}/result`, undefined, 'GET');
}
const VOICE_DURATION = 'voice duration (POST /v3/voice/jobs of a WAV until done, seconds)';
if (GrowthRun.selected(VOICE_DURATION)) await voiceJob(speech(3));
let audio: Buffer = Buffer.alloc(0);
await growth.dimension(
  VOICE_DURATION,
  doubling(5, 7),
  () => voiceJob(audio),
  1,
  async (size) => {
    audio = speech(size);
  },
);

growth.printTable();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
