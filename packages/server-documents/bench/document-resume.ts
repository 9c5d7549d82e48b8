/**
 * Resuming a document job (issue 19): a 3,000-line text (6,000 distinct sentences, 30 chunks) translated
 * with Apertium en→es; the server is closed once half the chunks are kept, then started again on the same
 * data directory; how long the restarted server takes to finish the document, and how many sentences its
 * engine gets — with the kept chunks (checkpoints), and with them deleted before the restart (what a job
 * did before: start again from the beginning). SQLite, one process, concurrency 1.
 *   npx tsx --conditions @glossa/source bench/document-resume.ts
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TranslationEngine } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { documentsFeature } from '../src/index.js';
import { countingApertium } from '../test/counting-engine.js';
import { waitUntilDone } from './wait-done.js';

const DEV_KEY = 'bench-resume-dev-key-0123456789';
const LINES = 3000;
const text = Array.from(
  { length: LINES },
  (_, i) => `The red car ${i} is fast. The house is big and the garden ${i} is green.\n`,
).join('');

const start = (dataDir: string, engines?: TranslationEngine[]) =>
  startServer({
    dataDir,
    ...BENCH_SERVER_OPTIONS,
    devKey: DEV_KEY,
    features: [documentsFeature({ concurrency: 1 })],
    ...(engines ? { engines } : {}),
  });

async function run(keep: boolean): Promise<{ seconds: number; sentences: number; kept: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'glossa-bench-resume-'));
  // The chunks kept: the job's `chunk-<n>` files (document-job.ts) under `<dataDir>/jobs/<id>/`.
  const chunkFiles = () => {
    const root = join(dataDir, 'jobs');
    if (!existsSync(root)) return [];
    return readdirSync(root)
      .filter((name) => !name.startsWith('.'))
      .flatMap((job) =>
        readdirSync(join(root, job))
          .filter((name) => name.startsWith('chunk-'))
          .map((name) => join(root, job, name)),
      );
  };
  const chunkRows = () => chunkFiles().length;
  try {
    let server = await start(dataDir);
    const auth = { authorization: `Service-Auth-Key ${DEV_KEY}` };
    const form = new FormData();
    form.append('file', new Blob([text]), 'long.txt');
    form.append('target_lang', 'ES');
    form.append('source_lang', 'EN');
    const uploaded = await fetch(`${server.url}/v2/document`, { method: 'POST', body: form, headers: auth });
    const ids = (await uploaded.json()) as { document_id: string; document_key: string };
    while (chunkRows() < 15) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.close();
    const kept = chunkRows();
    if (!keep) {
      for (const file of chunkFiles()) rmSync(file);
    }
    const counting = countingApertium();
    const began = performance.now();
    server = await start(dataDir, [counting.engine]);
    await waitUntilDone(server.url, DEV_KEY, ids, 25);
    const seconds = (performance.now() - began) / 1000;
    await server.close();
    return { seconds, sentences: counting.texts(), kept: keep ? kept : 0 };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const keep of [true, false, true, false]) {
  const result = await run(keep);
  console.log(
    `${keep ? 'with checkpoints   ' : 'without checkpoints'}: restart → done ${result.seconds.toFixed(2)} s, ${result.sentences} sentences to the engine (kept chunks: ${result.kept})`,
  );
}
