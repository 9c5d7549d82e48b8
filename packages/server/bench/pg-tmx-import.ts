/**
 * Issue 31: the largest TMX import the limits allow (100 MiB, `largestTmx()` of server-full's abuse inputs)
 * on a PostgreSQL server, with a normal client's short translations (the paid key, 50 a second) before and
 * during it. A throwaway cluster (`test/services.ts`), the spine in a child (`pg-tmx-server.ts`). Per round:
 * the normal client's p50/p99 unloaded (PHASE_MS, default 8 s) and during the import (from the import's
 * creation to its job's end), their p99 ratio, the import's time, and the child's event loop over the import
 * (busy share, longest stalls and when they began, ms since the child started). `ROUNDS=n` (default 2).
 * `tsx --conditions @glossa/source bench/pg-tmx-import.ts` from packages/server; `PROFILE_DIR=dir`: the
 * server's CPU profile (`--cpu-prof`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largestTmx } from '../../server-full/test/abuse-inputs.js';
import {
  call,
  FROM_SOURCES,
  latencyFigures,
  normalClient,
  normalClientFor,
  printable,
  reportOnSignal,
  startAbuseServer,
} from '../test/abuse-helpers.js';
import { startPostgres } from '../test/services.js';

const rounds = Number(process.env.ROUNDS ?? 2);
const phaseMs = Number(process.env.PHASE_MS ?? 8000);
const { content } = largestTmx();
const cluster = await startPostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-pg-tmx-'));
// PROFILE_DIR=dir: the server's CPU profile, written there as it exits.
const profile = process.env.PROFILE_DIR;
const server = await startAbuseServer(
  new URL('./pg-tmx-server.ts', import.meta.url).pathname,
  { dataDir, memoryBudgetMb: 768, databaseUrl: await cluster.createDatabase() },
  profile ? [...FROM_SOURCES, '--cpu-prof', `--cpu-prof-dir=${profile}`] : FROM_SOURCES,
);
const loop = () => reportOnSignal<unknown>(server, 'loop');
const { started } = server;
const api = (what: string, path: string, body?: unknown) =>
  call(what, started.free, started.freeKey, path, body);
let traced = 0;
try {
  await normalClientFor(started, 2000);
  for (let round = 1; round <= rounds; round++) {
    const quiet = await normalClientFor(started, phaseMs);
    traced = server.output().length;
    await loop();
    const begun = performance.now();
    const importing = (async () => {
      const created = await api('import', '/v3/translation_memories/import', {
        source_file: { file_name: 'largest.tmx', content_length: content.length },
        parameters: { display_name: `largest ${round}` },
      });
      if (created.status !== 202) throw new Error(`import: ${created.status} ${created.text}`);
      const job = JSON.parse(created.text) as { job_id: string; upload_url: string };
      const upload = await fetch(job.upload_url, { method: 'PUT', body: content });
      if (upload.status !== 204) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
      const uploadedMs = performance.now() - begun;
      for (;;) {
        const answer = await api('job', `/v3/translation_memories/jobs/${job.job_id}`);
        if (!(answer.status === 200 && /"status":"(processing|awaiting_input)"/.test(answer.text)))
          return { uploadedMs, answer };
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const loaded = await normalClient(started, importing);
    const { uploadedMs, answer } = await importing;
    const importMs = performance.now() - begun;
    const figures = latencyFigures(quiet.latencies, loaded.latencies);
    console.log(
      printable({
        round,
        result: /"status":"\w+"/.exec(answer.text)?.[0],
        uploadedMs,
        importMs,
        ...figures,
        ratio: figures.loaded.p99 / figures.unloaded.p99,
        failures: loaded.failures,
        loop: await loop(),
      }),
    );
    // GLOSSA_ABUSE_TRACE=1 (test/abuse-server.ts): the server's collections and stalls of the round.
    if (process.env.GLOSSA_ABUSE_TRACE) {
      const gc = [
        ...server
          .output()
          .slice(traced)
          .matchAll(/^gc \d+ (\d+) ms/gm),
      ].map((m) => Number(m[1]));
      console.log(
        `gc over 20 ms: ${gc.length}, ${gc.reduce((a, b) => a + b, 0)} ms, longest ${Math.max(0, ...gc)}`,
      );
      traced = server.output().length;
    }
    const memory = /"translation_memory_id":"([^"]+)"/.exec(answer.text)?.[1];
    if (memory)
      await fetch(`${started.free}/v3/translation_memories/${memory}`, {
        method: 'DELETE',
        headers: { authorization: `Service-Auth-Key ${started.freeKey}` },
      });
  }
} finally {
  await server.close();
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
