/**
 * Issue 31, "Done when", every abusive input at once: with a free key on the full server (every feature
 * package, as `glossa-server` runs it), three 10 MiB glossaries created and used in turn and at once (the
 * spine's abuse test's input, packages/server/test/abuse.test.ts), the largest TMX file an import takes
 * (MAX_TMX_BYTES), a quality-evaluation job of the most and longest segments
 * (MAX_EVALUATION_SEGMENTS × MAX_EVALUATION_SEGMENT_LENGTH, both sides) and a synchronous evaluation whose one
 * segment fills its body limit (the input that was quadratic), all at once, while a normal client (a paid
 * key) translates short texts. The server stays up, its RSS (read from /proc: the server runs in a child
 * process) stays under its memory budget, every abusive request is answered with a success or a 429/503
 * that has Retry-After (no other 5xx; a refused request is sent again after it, and each input is finally
 * served: the server's memory admission, memory-budget.ts, makes heavy work wait its turn), and the normal
 * client gets no error. The normal client's latency
 * unloaded and loaded is printed; timing is not asserted (bench/abuse-latency.ts measures it, input by
 * input). The inputs are abuse-inputs.ts's, shared with that bench.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AbuseServer,
  type Answer,
  call as callAs,
  FROM_SOURCES,
  latencyFigures,
  normalClient,
  normalClientFor,
  printable,
  sampleRss,
  startAbuseServer,
} from '../../server/test/abuse-helpers.js';
import { FULL_MEMORY_BUDGET_MB } from '../src/index.js';
import { fewArenasEnv, onGlibc } from '../src/malloc-arenas.js';
import {
  importLargestTmx,
  importOverLimit,
  largestGlossaries,
  largestTmx,
  qualityJob,
  qualitySync,
} from './abuse-inputs.js';

/**
 * The full server's default ceiling (`FULL_MEMORY_BUDGET_MB`, given to the child by default): not the spine's
 * 768, because its own RSS once its language tools have loaded (`/ready`) is 0.60–0.65 GB built (0.74–0.76
 * from the sources, tsx in every thread) before any request. With the glossaries added, every input at once
 * peaked at 1,153 MB from the sources before the memory admission (memory-budget.ts), and after it at
 * 886–913 MB built and 983–1,006 MB from the sources (2026-11-29), the heavy work waiting its turn. The
 * waiting costs time: this file took 39–59 s built, 97–196 s from the sources (where a 10 MiB glossary barely
 * fits, and its requests wait, or are refused and sent again).
 */
const BUDGET_MB = FULL_MEMORY_BUDGET_MB;
/**
 * GLOSSA_ABUSE_BUILT=1: the child runs the built packages (`pnpm build` first) with plain node, as
 * `glossa-server` does; by default it runs the TypeScript sources through tsx. CI sets it after `pnpm build`
 * (.ci/run); without it a `pnpm test` needs no build (with it, the child refuses a `dist/` older than its sources).
 */
const BUILT = Boolean(process.env.GLOSSA_ABUSE_BUILT);
const here = new URL('.', import.meta.url).pathname;

let server: AbuseServer;
let idleRssMb = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-abuse-full-'));

beforeAll(async () => {
  server = await startAbuseServer(
    join(here, 'abuse-full-server.mjs'),
    { dataDir },
    BUILT ? [] : FROM_SOURCES,
    // As `glossa-server` runs: with MALLOC_ARENA_MAX=2 on glibc unless the environment sets it (malloc-arenas.ts).
    fewArenasEnv(),
  );
  // The language tools load at start; `/ready` answers 503 until they have.
  for (;;) {
    const ready = await fetch(`${server.started.paid}/ready`).then((response) => response.status);
    if (ready === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  idleRssMb = server.rssMb();
}, 240_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A call with the free key. */
const call = (what: string, path: string, body?: unknown) =>
  callAs(what, server.started.free, server.started.freeKey, path, body);

const remove = (path: string) =>
  fetch(server.started.free + path, {
    method: 'DELETE',
    headers: { authorization: `Service-Auth-Key ${server.started.freeKey}` },
  });

async function importTmx(answers: Answer[]): Promise<Answer> {
  const tooLarge = await importOverLimit(call);
  expect(tooLarge.status, tooLarge.text).toBe(413);
  const { answer, status } = await importLargestTmx(call, answers);
  if (answer.status === 200) {
    expect(status, answer.text).toBe('completed');
    const { content, units } = largestTmx();
    console.log(`abuse-full: TMX of ${content.length} bytes, ${units} units imported`);
  }
  return answer;
}

describe('abuse of the full server with a free key within the documented limits', () => {
  it.skipIf(!onGlibc())('runs the server with MALLOC_ARENA_MAX as glossa-server sets it', () => {
    const environ = readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain(`MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}`);
  });

  it('10 MiB glossaries, the largest TMX import and the longest quality segments, at once: up, under budget, answered', async () => {
    const rss = sampleRss(server);
    const { started } = server;
    try {
      await normalClientFor(started, 1000);
      const unloaded = await normalClientFor(started, 3000);

      const answers: Answer[] = [];
      const started_ = performance.now();
      // GLOSSA_ABUSE_ONLY=glossaries|tmx|job|sync sends one of the four (to see which one a failure comes from).
      const only = process.env.GLOSSA_ABUSE_ONLY;
      const abuse = Promise.all(
        (
          [
            ['glossaries', (kept: Answer[]) => largestGlossaries(call, remove, kept, 0)],
            ['tmx', importTmx],
            ['job', (kept: Answer[]) => qualityJob(call, kept)],
            ['sync', (kept: Answer[]) => qualitySync(call, kept)],
          ] as const
        )
          .filter(([name]) => !only || only === name)
          .map(([, send]) => send(answers)),
      );
      const [loaded, finals] = await Promise.all([normalClient(started, abuse), abuse]);
      const abuseSeconds = (performance.now() - started_) / 1000;
      const after = await normalClientFor(started, 3000);
      const peak = rss.peak();
      const quiet = [...unloaded.latencies, ...after.latencies];

      const figures = {
        idleRssMb,
        peakRssMb: Math.round(peak),
        budgetMb: BUDGET_MB,
        built: BUILT,
        abuseSeconds,
        finals: finals.map((answer) => `${answer.what} ${answer.status}`).join(', '),
        ...latencyFigures(quiet, loaded.latencies),
      };
      console.log(
        `abuse-full: ${printable(figures)}; p99 ratio ${(figures.loaded.p99 / figures.unloaded.p99).toFixed(1)}`,
      );
      if (process.env.GLOSSA_ABUSE_TRACE) console.log(server.output());
      expect(server.child.exitCode, server.output()).toBeNull();
      for (const answer of answers) {
        if (answer.status < 300) continue;
        expect([429, 503], `${answer.what}: ${answer.status} ${answer.text}`).toContain(answer.status);
        expect(answer.retryAfter, answer.what).toMatch(/^\d+$/);
      }
      // Each abusive input was served (a job that completed, an evaluation that answered), not only refused.
      expect(
        finals.map((answer) => answer.status),
        finals.map((answer) => `${answer.what}: ${answer.text.slice(0, 200)}`).join('\n'),
      ).toEqual(finals.map(() => 200));
      expect(loaded.failures + unloaded.failures + after.failures).toBe(0);
      expect(peak).toBeLessThan(BUDGET_MB);
    } finally {
      rss.stop();
    }
  }, 400_000);
});
