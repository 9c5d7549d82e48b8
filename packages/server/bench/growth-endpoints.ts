/**
 * Growth benchmark at endpoint level (issue 31): a real server (`growth-server.ts`, a child process) driven
 * over HTTP with inputs doubled along each dimension, up to or near the documented limits:
 * - texts per request and text length (`/v2/translate`, Apertium EN→ES);
 * - glossary entries (`POST /v2/glossaries` then the first `/v2/translate` with it: parse, store, compile);
 * - memory size (`/v3/translation_memories/import` of a TMX until its job is done, then `/v2/translate`
 *   of 20 sentences with the memory).
 * Per size: wall time (median of 3 for the requests that are cheap to repeat) and the server's peak
 * RSS above its RSS before (VmHWM after resetting it through /proc/<pid>/clear_refs). Per dimension: the
 * fitted exponent of time and of peak memory (`growthExponent`, log-log least squares; ≤ 1.15 is linear
 * enough), and the smallest size's time as the baseline of the same run (the ratio largest/smallest
 * against the ratio of sizes).
 *   pnpm --filter @glossa/server bench:growth        (ONLY=<regexp>: only the dimensions it matches)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApertiumProcess } from '../src/engines/apertium-process.js';
import { GrowthRun, jsonClient, startBenchServer, until } from './growth-harness.js';

const here = new URL('.', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-growth-'));
const server = await startBenchServer<{ url: string; key: string }>(join(here, 'growth-server.ts'), {
  dataDir,
});
const { url, key } = server.ready;

/** The process whose memory is measured: the server, or this one (`self`) for the function-level row. */
let measured: number | 'self' = server.child.pid!;
const growth = new GrowthRun(() => measured);
const call = jsonClient(url, key);

let unique = 0;
const WORDS = [
  'the',
  'file',
  'disk',
  'house',
  'green',
  'server',
  'opens',
  'reads',
  'quickly',
  'small',
  'new',
  'old',
];
const sentence = () => {
  const n = unique++;
  const words = Array.from({ length: 9 }, (_, k) => WORDS[(n * 7 + k * 5) % WORDS.length]!);
  return `Sentence ${n}: ${words.join(' ')}.`;
};
const translate = (text: string[], extra: Record<string, unknown> = {}) =>
  call('/v2/translate', { text, source_lang: 'EN', target_lang: 'ES', ...extra });

// Function level: answers of one Apertium process for many queued segments (a fake pipeline, `cat`, which
// echoes each; the real pipelines' own time is linear per segment).
measured = 'self';
const pipeline = new ApertiumProcess({
  command: { name: 'cat', script: 'cat' },
  idleMs: 60_000,
  timeoutMs: 60_000,
});
await growth.dimension(
  'Apertium answers queued at once (segments, fake pipeline `cat`)',
  [12_500, 25_000, 50_000, 100_000, 200_000],
  async (size) => {
    await Promise.all(
      Array.from({ length: size }, (_, k) => pipeline.translate(`segment ${k} of the batch`)),
    );
  },
);
pipeline.close();
measured = server.child.pid!;

// Warm-up: Apertium's pipeline starts on the first request.
await translate([sentence()]);
await translate(Array.from({ length: 64 }, sentence));

await growth.dimension(
  'texts per request (/v2/translate, ~60 B each)',
  [32, 64, 128, 256, 512, 1024],
  async (size) => {
    await translate(Array.from({ length: size }, sentence));
  },
);

await growth.dimension(
  'text length (/v2/translate, one text, bytes)',
  [2048, 4096, 8192, 16384, 32768, 65536],
  async (size) => {
    let text = '';
    while (text.length < size) text += `${sentence()} `;
    await translate([text.slice(0, size)]);
  },
);

const glossary = (count: number, seed: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `${i % 4 === 0 ? `term${seed}x${i.toString(36)} word${i}` : `term${seed}x${i.toString(36)}`}\tobjetivo ${i} ${'largo '.repeat(4)}`,
  ).join('\n');
let glossaries = 0;
/** Creates a glossary of `size` entries, translates a sentence with it once, and deletes it. */
async function glossaryRequest(size: number): Promise<void> {
  const seed = glossaries++;
  const created = await call('/v2/glossaries', {
    name: `g${seed}`,
    source_lang: 'en',
    target_lang: 'es',
    entries: glossary(size, seed),
    entries_format: 'tsv',
  });
  await translate([`hello, the term${seed}x1 house and the term${seed}x4 word4 files`], {
    glossary_id: created.glossary_id,
  });
  await call(`/v2/glossaries/${created.glossary_id}`, undefined, 'DELETE');
}
// Warm-up: the glossary thread and Apertium's term pipeline start on the first large glossary.
if (GrowthRun.selected('glossary entries')) await glossaryRequest(5_000);
await growth.dimension(
  'glossary entries (POST /v2/glossaries + first /v2/translate)',
  [5_000, 10_000, 20_000, 40_000, 80_000, 160_000],
  glossaryRequest,
  1,
);

const tmx = (count: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="bench" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body>\n${Array.from(
    { length: count },
    (_, i) => {
      const source = sentence();
      return `<tu><tuv xml:lang="en"><seg>${source}</seg></tuv><tuv xml:lang="es"><seg>traducción ${i}</seg></tuv></tu>`;
    },
  ).join('\n')}\n</body></tmx>\n`;
async function importMemory(count: number): Promise<string> {
  const content = tmx(count);
  const started = await call('/v3/translation_memories/import', {
    source_file: { file_name: `m${count}.tmx`, content_length: Buffer.byteLength(content) },
    parameters: { display_name: `m${count}` },
  });
  const upload = await fetch(started.upload_url, { method: 'PUT', body: content });
  await upload.arrayBuffer();
  return until(async () => {
    const job = (await call(`/v3/translation_memories/jobs/${started.job_id}`, undefined, 'GET')) as {
      results?: { status: string; translation_memory_id?: string }[];
    };
    const result = job.results?.[0];
    if (!result || result.status === 'processing' || result.status === 'awaiting_input') return undefined;
    if (result.status !== 'completed' || !result.translation_memory_id)
      throw new Error(`import of ${count}: ${JSON.stringify(result)}`);
    return result.translation_memory_id;
  });
}
const memories = new Map<number, string>();
const memorySizes = [2_500, 5_000, 10_000, 20_000, 40_000, 80_000];
await growth.dimension(
  'memory size (TMX import until its job is done, segments)',
  memorySizes,
  async (size) => {
    memories.set(size, await importMemory(size));
  },
  1,
);
await growth.dimension(
  'memory size (/v2/translate of 20 sentences with the memory, segments)',
  memorySizes,
  async (size) => {
    await translate(Array.from({ length: 20 }, sentence), { translation_memory_id: memories.get(size) });
  },
);

growth.printTable();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
