/**
 * Issue 21, item 3: precision and recall of `/v2/write/correct` per language on public learner corpora, judged
 * by each corpus's own references (bench/write-corpora.ts `judge`; corpora, sources and licences in
 * test/fixtures/write/README.md and bench/data/README.md). Every sentence goes through a real server, one
 * request each, as a user would send it. A sentence the server refuses (its text detected as another
 * language: 400) gets no edit and is counted apart. Figures are printed; each bound below is the figure
 * measured when it was written (wrong edits may not grow), not a goal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CorpusScore,
  describeScore,
  emptyCorpusScore,
  type Judged,
  judge,
  LEARNER_CORPORA,
  readCorpus,
} from '../bench/write-corpora.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function score(corpus: readonly Judged[], targetLang: string) {
  const result: CorpusScore = emptyCorpusScore();
  const refused: string[] = [];
  const outputs: string[] = new Array(corpus.length);
  let next = 0;
  // Four requests at a time.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < corpus.length) {
        const index = next++;
        let reply = await t.call('/v2/write/correct', {
          json: { text: [corpus[index]!.source], target_lang: targetLang },
        });
        // The server's rate limit answers 429 with Retry-After when requests come faster than it allows.
        for (let attempt = 0; reply.status === 429 && attempt < 50; attempt++) {
          const wait = Number(reply.headers.get('retry-after') ?? 1);
          await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(wait, 0.2), 5) * 1000));
          reply = await t.call('/v2/write/correct', {
            json: { text: [corpus[index]!.source], target_lang: targetLang },
          });
        }
        if (reply.status === 400 && /target_lang is/.test(reply.data.message)) {
          refused.push(corpus[index]!.source);
          outputs[index] = corpus[index]!.source;
        } else {
          expect(reply.status, JSON.stringify(reply.data)).toBe(200);
          outputs[index] = reply.data.improvements[0].text;
        }
      }
    }),
  );
  corpus.forEach((item, index) => {
    judge(result, item, outputs[index]!);
  });
  return { result, refused };
}

/** Wrong edits measured per slice (word-usage check, 2026-11-26; UGCNormal references repaired later that day); they may not grow. */
const MEASURED_WRONG: Readonly<Record<string, number>> = {
  'COWS-L2H es, tuned': 6,
  'COWS-L2H es, held out': 14,
  'COWS-L2H es, second held out': 9,
  'MERLIN de, tuned': 4,
  'MERLIN de, held out': 5,
  'MERLIN de, second held out': 8,
  'VALICO it, tuned': 7,
  'VALICO it, held out': 4,
  'MERLIN it, dev': 9,
  'UGCNormal pt-BR, tuned': 2,
  'UGCNormal pt-BR, held out': 4,
};

/** Each language's scores summed over its slices, filled by the tests of the slices. */
const byLanguage = new Map<string, CorpusScore>();

describe('correct on learner corpora, judged by their own references', () => {
  for (const { label, file, language } of LEARNER_CORPORA) {
    it(`${label} (${file})`, { timeout: 180_000 }, async () => {
      const corpus = readCorpus(file);
      const { result, refused } = await score(corpus, language);
      const total = byLanguage.get(language.slice(0, 2)) ?? emptyCorpusScore();
      for (const key of ['made', 'right', 'unjudgeable'] as const) total[key] += result[key];
      byLanguage.set(language.slice(0, 2), total);
      console.log(
        `${label}: ${corpus.length} sentences, ${describeScore(result)}; ${refused.length} refused as another language`,
      );
      expect(result.made, describeScore(result)).toBeGreaterThan(0);
      const bound = MEASURED_WRONG[label];
      if (bound !== undefined)
        expect(result.made - result.right, describeScore(result)).toBeLessThanOrEqual(bound);
    });
  }

  // The goal of issue 21, per language over all its slices: of the edits a reference judges (it keeps the
  // word as written or has the edit's word), at least 95% are the reference's. An edit whose span every
  // reference rewrote entirely ("simpatico" → "simpático" where the reference says "agradable") is judged by
  // none: it is left out here, and counted wrong in the figures above.
  it('precision where a reference judges is at least 0.95 in each language', () => {
    expect([...byLanguage.keys()].sort()).toEqual(['de', 'es', 'it', 'pt']);
    for (const [language, total] of byLanguage) {
      const judged = total.made - total.unjudgeable;
      console.log(`${language}: ${total.right}/${judged} judged edits right`);
      expect(total.right / judged, language).toBeGreaterThanOrEqual(0.95);
    }
  });
});
