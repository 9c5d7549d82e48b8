/**
 * Real TMX files through the import (issue 31): the LISA TMX Compliance Kit's import and export tests and a
 * TMX from Okapi's tests (fixtures/tmx/README.md says where each comes from and under which licence). Each
 * is imported through a real server (SQLite, its import thread; `GLOSSA_TEST_POSTGRES=1`: PostgreSQL), and
 * what the job reports, the memory's segments and exact lookups are checked against the file's own content,
 * read here by a parse of its own (regular expressions over the decoded text, not tmx.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { importTmx } from './memory-helpers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'tmx');
const files = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.tmx'))
  .sort();

/** The file's text: UTF-16 when it starts with its byte-order mark, else UTF-8 (a UTF-8 mark dropped). */
function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** A segment's plain text: inline codes left out with their content, other tags (`hi`) dropped, entities read. */
const plain = (seg: string) =>
  seg
    .replace(/<(bpt|ept|ph|it|ut)\b[^>]*\/>/g, '')
    .replace(/<(bpt|ept|ph|it|ut)\b[^>]*>[\s\S]*?<\/\1\s*>/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (_, name: string) =>
      name[0] === '#'
        ? String.fromCodePoint(
            Number(name[1] === 'x' || name[1] === 'X' ? `0${name.slice(1)}` : name.slice(1)),
          )
        : ENTITIES[name]!,
    )
    .trim();
const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(["'])(.*?)\\1`).exec(tag)?.[2];
const root = (language: string) => language.split(/[-_]/)[0]!.toLowerCase();

interface Unit {
  source: string;
  targets: { language: string; text: string }[];
}

/** What the file holds: every unit, and those a memory of the header's source language keeps. */
function expected(text: string) {
  const header = /<header\b[^>]*>/.exec(text)![0];
  const srclang = attribute(header, 'srclang')!.toLowerCase();
  const units: Unit[] = [];
  let all = 0;
  let variantsOnly = 0;
  for (const [, tu] of text.matchAll(/<tu\b[^>]*>([\s\S]*?)<\/tu\s*>/g)) {
    all++;
    const tuvs = [...tu!.matchAll(/<tuv\b([^>]*)>[\s\S]*?<seg>([\s\S]*?)<\/seg>/g)].map(([, tag, seg]) => ({
      variant: attribute(tag!, 'xml:lang')!.toLowerCase(),
      text: plain(seg!),
    }));
    const source =
      tuvs.find((tuv) => tuv.variant === srclang) ?? tuvs.find((tuv) => root(tuv.variant) === root(srclang));
    const targets = tuvs
      .filter((tuv) => root(tuv.variant) !== root(srclang) && tuv.text !== '')
      .map((tuv) => ({ language: root(tuv.variant), text: tuv.text }));
    if (source && source.text !== '' && targets.length > 0) units.push({ source: source.text, targets });
    else if (source && tuvs.some((tuv) => tuv !== source && root(tuv.variant) === root(srclang)))
      variantsOnly++;
  }
  return { source: root(srclang), all, units, variantsOnly };
}

/** Pairs the test server's engines (Apertium) do not serve: no lookup through /v2/translate there. */
const NO_ENGINE = ['en-de', 'en-ja'];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(async () => {
  await t.close();
});

describe('real TMX files imported', () => {
  it('the fixtures are the files the README names, under 1 MB', () => {
    const readme = readFileSync(join(FIXTURES, 'README.md'), 'utf8');
    for (const file of files) expect(readme).toContain(basename(file));
    expect(files.length).toBeGreaterThanOrEqual(20);
    const bytes = files.reduce((sum, file) => sum + readFileSync(join(FIXTURES, file)).length, 0);
    expect(bytes).toBeLessThan(1024 * 1024);
  });

  it.each(files)('%s: the job reports, the segments and exact lookups are the file’s', async (file) => {
    const bytes = readFileSync(join(FIXTURES, file));
    const want = expected(decode(bytes));
    const job = await importTmx(t, bytes, basename(file, '.tmx'));
    expect(job.upload).toBe(204);
    if (want.units.length === 0) {
      // Only units between regional variants of one language (en-US → en-GB): a memory's languages are
      // languages, so nothing is kept, and the message says why.
      expect(want.variantsOnly).toBeGreaterThan(0);
      expect(job.status).toBe('failed');
      expect(job.result.error.message).toContain(
        `no usable translation unit (${want.all} skipped; ${want.variantsOnly} of them translate only between variants of ${want.source}`,
      );
      return;
    }
    expect(job.result).toEqual({
      status: 'completed',
      translation_memory_id: expect.any(String),
      skipped_segment_count: want.all - want.units.length,
    });
    const id = job.result.translation_memory_id;
    const memory = (await t.call(`/v3/translation_memories/${id}`)).data;
    expect(memory).toMatchObject({
      source_language: want.source,
      target_languages: [
        ...new Set(want.units.flatMap((unit) => unit.targets.map((x) => x.language))),
      ].sort(),
      segment_count: want.units.length,
    });
    const segments = await t.call(`/v3/translation_memories/${id}/segments?page_size=100`);
    expect(segments.data.next_page_cursor).toBeNull();
    expect(
      segments.data.segments.map((segment: { source_text: string; targets: Record<string, string>[] }) => ({
        source: segment.source_text,
        targets: segment.targets.map((x) => ({ language: x.target_language, text: x.target_text })),
      })),
    ).toEqual(want.units);

    // Exact lookups: each unit's source (whitespace collapsed, as a client would send it) translated to the
    // first of its targets' languages the engines serve answers that target, a match of 100. The pairs no
    // engine of the test server serves are answered 400, and named here.
    let lookups = 0;
    for (const unit of want.units.slice(0, 3)) {
      for (const target of unit.targets) {
        const reply = await t.translate({
          text: [unit.source.replace(/\s+/g, ' ')],
          source_lang: want.source.toUpperCase(),
          target_lang: target.language.toUpperCase(),
          translation_memory_id: id,
          show_translation_memory_matches: true,
        });
        if (reply.status === 400) {
          expect(NO_ENGINE).toContain(`${want.source}-${target.language}`);
          continue;
        }
        expect(reply.status, reply.text).toBe(200);
        const [translation] = reply.data.translations;
        expect(translation.customizations.translation_memory_matches[0].match_score).toBe(100);
        expect(translation.text).toBe(target.text);
        lookups++;
        break;
      }
    }
    const served = want.units
      .slice(0, 3)
      .filter((unit) => unit.targets.some((x) => !NO_ENGINE.includes(`${want.source}-${x.language}`)));
    expect(lookups).toBe(served.length);
  });
});
