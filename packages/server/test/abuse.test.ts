/**
 * Issue 31, "Done when": with a free key, the largest glossaries the limits allow (10 MiB, 160,000 entries),
 * each in turn and three at once, sent while a normal client (a paid key) translates short texts: the
 * server stays up, its RSS (read from /proc, the server runs in a child process) stays under its memory
 * budget, and every abusive request is answered (200, or 503/429 with Retry-After). The normal client's
 * latency is measured unloaded (before and after the abuse, together: a shared machine's own load drifts)
 * and under load, and printed (p50, p99, their ratio, and how many loaded requests took over 3× the
 * unloaded p99); timing is not asserted.
 *
 * The largest TMX import and the longest quality segments need the full server: they are in
 * packages/server-full/test/abuse-full.test.ts. GLOSSA_ABUSE_INLINE_PARSE=1 parses every JSON body on the
 * event loop (the baseline before large bodies went to a thread), GLOSSA_ABUSE_TRACE=1 prints the server's
 * stalls, GCs and when each abusive request began and ended.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AbuseServer,
  call,
  largestGlossary,
  latencyFigures,
  normalClient,
  normalClientFor,
  percentile,
  printable,
  sampleRss,
  startAbuseServer,
} from './abuse-helpers.js';

/** The default budget (`--memory-budget-mb`), which fits a 1 GiB container. */
const BUDGET_MB = 768;
const here = new URL('.', import.meta.url).pathname;

let server: AbuseServer;
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-abuse-'));

beforeAll(async () => {
  server = await startAbuseServer(join(here, 'abuse-server.ts'), { dataDir, memoryBudgetMb: BUDGET_MB });
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('abuse with a free key within the documented limits', () => {
  it('10 MiB glossaries in turn and at once: the server stays up, under its budget, and answers', async () => {
    const rss = sampleRss(server);
    const { started } = server;
    try {
      // Unloaded: warm the normal client's path, then measure.
      await normalClientFor(started, 1000);
      const unloaded = await normalClientFor(started, 4000);

      const abuse = (async () => {
        const ids: string[] = [];
        for (let k = 0; k < 3; k++) {
          const created = await call('glossary', started.free, started.freeKey, '/v2/glossaries', {
            name: `g${k}`,
            source_lang: 'en',
            target_lang: 'es',
            entries: largestGlossary(k),
            entries_format: 'tsv',
          });
          expect(created.status, created.text).toBe(201);
          ids.push(JSON.parse(created.text).glossary_id);
        }
        const translate = (glossary_id: string, text: string) =>
          call('translate', started.free, started.freeKey, '/v2/translate', {
            text: [text],
            source_lang: 'EN',
            target_lang: 'ES',
            glossary_id,
          });
        // Each in turn, then all at once (new texts: the candidates differ, the compiled glossaries are shared).
        const answers = [];
        for (const id of ids) answers.push(await translate(id, 'hello, the term0x1 house'));
        answers.push(...(await Promise.all(ids.map((id, k) => translate(id, `the term${k}x4 word4 files`)))));
        return answers;
      })();
      const [loaded, answers] = await Promise.all([normalClient(started, abuse), abuse]);
      const after = await normalClientFor(started, 4000);
      const peak = rss.peak();
      const quiet = [...unloaded.latencies, ...after.latencies];
      const figures = {
        peakRssMb: Math.round(peak),
        budgetMb: BUDGET_MB,
        answers: answers.map((answer) => answer.status).join(','),
        p99Before: percentile(unloaded.latencies, 99),
        p99After: percentile(after.latencies, 99),
        ...latencyFigures(quiet, loaded.latencies),
      };
      const slow = loaded.latencies.filter((took) => took > 3 * figures.unloaded.p99).length;
      console.log(
        `abuse: ${printable(figures)}; p99 ratio ${(figures.loaded.p99 / figures.unloaded.p99).toFixed(1)}; ${slow} of ${loaded.latencies.length} loaded requests over 3x the unloaded p99`,
      );
      if (process.env.GLOSSA_ABUSE_TRACE) console.log(server.output());
      expect(server.child.exitCode, server.output()).toBeNull();
      for (const answer of answers) {
        if (answer.status === 200) continue;
        expect([429, 503], answer.text).toContain(answer.status);
        expect(answer.retryAfter).toMatch(/^\d+$/);
      }
      expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
      expect(loaded.failures + unloaded.failures + after.failures).toBe(0);
      expect(peak).toBeLessThan(BUDGET_MB);
    } finally {
      rss.stop();
    }
  }, 240_000);
});
