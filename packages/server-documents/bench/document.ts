/**
 * Document benchmark: documents per minute for a 20-page DOCX (about 400 paragraphs, 9,000 words, a bold
 * run in every paragraph) through the whole job (upload, extract, translate, rebuild, download), with the
 * pseudo engine (en-XA) and with Apertium (en→es), 4 documents in flight. Baseline measured in the same
 * run: the same paragraphs sent to POST /v2/translate (tag_handling xml, 50 texts a request), so the ratio
 * is what the document pipeline costs on top of translating its text. Every document has different
 * sentences, so the engine output cache never answers.
 *   pnpm --filter @glossa/server bench:document
 */
import { readFileSync } from 'node:fs';
import * as docx from 'docx';
import { startBenchService } from './document-service.js';

const PAGES = 20;
const PARAGRAPHS_PER_PAGE = 20;
const DOCUMENTS = 4;
const sentences = readFileSync(new URL('../../server/bench/apertium-sentences.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '');

/** A word of letters only that names (document, paragraph, sentence), so no two units are the same. */
const label = (...numbers: number[]) =>
  `Zq${numbers.map((value) => value.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + Number.parseInt(digit, 26)))).join('x')}`;

/** The paragraphs of document `n`: two sentences each (each with its own label), a bold word in the first. */
function paragraphs(n: number): { before: string; bold: string; after: string }[] {
  return Array.from({ length: PAGES * PARAGRAPHS_PER_PAGE }, (_, i) => {
    const first = sentences[(n * 397 + i * 2) % sentences.length]!;
    const second = sentences[(n * 397 + i * 2 + 1) % sentences.length]!;
    const words = first.split(' ');
    const middle = Math.floor(words.length / 2);
    return {
      before: `${label(n, i, 1)} ${words.slice(0, middle).join(' ')} `,
      bold: words[middle] ?? 'now',
      after: ` ${words.slice(middle + 1).join(' ')} ${label(n, i, 2)} ${second}`,
    };
  });
}

async function makeDocx(n: number): Promise<Buffer> {
  const children = paragraphs(n).map(
    (p) =>
      new docx.Paragraph({
        children: [
          new docx.TextRun(p.before),
          new docx.TextRun({ text: p.bold, bold: true }),
          new docx.TextRun(p.after),
        ],
      }),
  );
  return docx.Packer.toBuffer(new docx.Document({ sections: [{ children }] }));
}

const service = await startBenchService('document');

async function timed(label: string, work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  console.log(`${label}: ${(ms / 1000).toFixed(2)} s`);
  return ms;
}

let round = 0;
const docs = await Promise.all(Array.from({ length: DOCUMENTS * 4 }, (_, n) => makeDocx(n)));
console.log(
  `${DOCUMENTS} documents of ${PAGES} pages (${PAGES * PARAGRAPHS_PER_PAGE} paragraphs, ${(docs[0]!.length / 1024).toFixed(0)} KiB each) per run`,
);
for (const [engine, target] of [
  ['pseudo', 'en-XA'],
  ['apertium', 'ES'],
] as const) {
  const batch = () => Array.from({ length: DOCUMENTS }, (_, i) => DOCUMENTS * round + i);
  const ids = batch();
  const documentMs = await timed(`${engine}: ${DOCUMENTS} documents`, () =>
    Promise.all(ids.map((n) => service.translateDocument(docs[n]!, 'report.docx', target))),
  );
  round++;
  const textIds = batch();
  const textMs = await timed(`${engine}: the same amount of text through /v2/translate`, () =>
    Promise.all(
      textIds.map((n) =>
        service.translateText(
          paragraphs(n).map((p) => `${p.before}<b>${p.bold}</b>${p.after}`),
          target,
          'xml',
        ),
      ),
    ),
  );
  round++;
  console.log(
    `${engine}: ${((DOCUMENTS / documentMs) * 60_000).toFixed(1)} documents per minute; document jobs take ${(documentMs / textMs).toFixed(2)}× the time of translating their text alone`,
  );
}
await service.close();
