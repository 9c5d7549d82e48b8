/**
 * A synchronous quality evaluation with a 160,000-entry glossary (issue 31): the route takes the dictionary
 * and its term finder from the server's compiled glossaries and passes on only the terms some segment's
 * source holds, instead of 160,000 objects.
 * The answer is the one the whole dictionary gives: its glossary issues are those of `@glossa/quality` run
 * with every entry as an object (as the route did before), and its other issues those of the same request
 * without the glossary.
 */
import { evaluateSegments } from '@glossa/quality';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const ENTRIES = 160_000;
/** Entry `i`: `term<i in base 36>` (every third capitalised) → `objetivo <i>`. */
const source = (i: number) => `${i % 3 === 0 ? 'Term' : 'term'}${i.toString(36)}`;
const target = (i: number) => `objetivo ${i}`;

it('a 160,000-entry glossary gives the issues of every entry, from the few terms the sources hold', async () => {
  const entries = Array.from({ length: ENTRIES }, (_, i) => ({ source: source(i), target: target(i) }));
  const created = await t.call('/v2/glossaries', {
    json: {
      name: 'large',
      source_lang: 'en',
      target_lang: 'es',
      entries: entries.map((entry) => `${entry.source}\t${entry.target}`).join('\n'),
      entries_format: 'tsv',
    },
  });
  expect(created.status, JSON.stringify(created.data)).toBe(201);
  const last = ENTRIES - 1;
  const segments = [
    // One term translated, two not; one in capitals, one inside a longer word (no issue), the last entry.
    { source: `Open ${source(0)} and term1 with term2 today.`, translation: `Abra ${target(0)} y term1.` },
    { source: 'Nothing of the glossary here.', translation: 'Nada del glosario aquí.' },
    { source: `TERM3, xterm4x and ${source(last)}.`, translation: 'TERM3 y nada.' },
    { source: `${source(77)} ${source(78)} ${source(79)}`, translation: `${target(78)}` },
  ];
  const body = { source_lang: 'en', target_lang: 'es', segments };
  const withGlossary = await t.call('/v3/quality/evaluate', {
    json: { ...body, glossary_id: created.data.glossary_id },
  });
  expect(withGlossary.status, JSON.stringify(withGlossary.data)).toBe(200);
  const without = await t.call('/v3/quality/evaluate', { json: body });
  expect(without.status).toBe(200);

  type Issue = {
    check: string;
    category: string;
    severity: string;
    message: string;
    start: number;
    end: number;
  };
  const answered: Issue[][] = withGlossary.data.segments.map(
    (segment: { issues: Issue[] }) => segment.issues,
  );
  const isGlossary = (issue: { check: string }) => issue.check === 'glossary_term';
  // Every entry as an object, as the route passed them before.
  const before = evaluateSegments(segments, { sourceLang: 'en', targetLang: 'es', glossary: entries });
  const glossaryIssues = before.map((issues) => issues.filter(isGlossary));
  expect(answered.map((issues) => issues.filter(isGlossary))).toEqual(glossaryIssues);
  expect(glossaryIssues.flat().length).toBe(6);
  expect(answered.map((issues) => issues.filter((issue) => !isGlossary(issue)))).toEqual(
    without.data.segments.map((segment: { issues: Issue[] }) => segment.issues),
  );
});
