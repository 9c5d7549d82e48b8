/**
 * An upload counts the characters it reserves one text at a time (issue 31): a large HTML page is many texts
 * (its parts), and preparing them all at once to count them held about 5 bytes a character until the count
 * was done. Measured through a real upload on a real server: the extraction's texts are read through a proxy
 * that notes the heap (after a full GC) each time the upload reads a text, so what the count holds between
 * texts shows; the characters reserved are those of every text prepared at once, as before.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { memoryAfterGc } from '../../server/test/test-utils.js';
import type { DocumentText } from '../src/formats/format.js';
import { htmlFormat } from '../src/formats/html.js';
import { billedOf, prepareTexts } from '../src/translate.js';
import { upload } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A page of `sections` sections, each a heading and paragraphs with inline markup and a link. */
function page(sections: number): string {
  const words = ['river', 'stone', 'is', 'cold', 'and', 'the', 'bridge', 'is', 'old', 'now'];
  const prose = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => words[(seed + i * 3) % words.length]).join(' ');
  let body = '';
  for (let s = 0; s < sections; s++)
    body +=
      `<section>\n<h2>Chapter ${s}: ${prose(3, s)}</h2>\n` +
      `<p>${prose(50, s)} <a href="/c${s}">see <b>${prose(2, s)}</b></a>. ${prose(15, s + 1)}.</p>\n` +
      `<ul><li>${prose(6, s)}</li><li>${prose(4, s + 2)} <i>${prose(2, s)}</i></li></ul>\n` +
      `<p>${prose(30, s + 3)}</p>\n</section>\n`;
  return `<!doctype html>\n<html>\n<head><title>River</title></head>\n<body>\n<main>\n${body}</main>\n</body>\n</html>\n`;
}

it('a 2 MB HTML page is counted at upload holding less than 1 byte a character, billed as before', async () => {
  const heap = () => memoryAfterGc().heapUsed;
  const html = page(3200);
  expect(html.length).toBeGreaterThan(2_000_000);
  const bytes = new TextEncoder().encode(html);
  const { texts } = await htmlFormat.extract(bytes, {});
  const preparedAtOnce = billedOf(prepareTexts(texts));

  // The heap each time the upload reads a text (once: the job reads the page again, unnoted).
  const seen: number[] = [];
  let done = false;
  const extract = htmlFormat.extract.bind(htmlFormat);
  const spy = vi.spyOn(htmlFormat, 'extract').mockImplementationOnce(async (...args) => {
    const extraction = await extract(...args);
    const noted = new Proxy(extraction.texts as DocumentText[], {
      get(target, property, receiver) {
        // Every 4th text (a full GC is slow on a loaded machine), the first reading only.
        if (typeof property === 'string' && /^\d+$/.test(property) && !done) {
          if (Number(property) % 4 === 0) seen.push(heap());
          done = Number(property) === target.length - 1;
        }
        return Reflect.get(target, property, receiver);
      },
    });
    return { ...extraction, texts: noted };
  });
  try {
    const uploaded = await upload(t, 'river.html', bytes);
    expect(uploaded.status, JSON.stringify(uploaded.data)).toBe(200);
    // Reserved at upload: the job has not billed anything yet.
    expect((await t.call('/v2/usage')).data.character_count).toBe(preparedAtOnce);
  } finally {
    spy.mockRestore();
  }
  expect(done).toBe(true);
  expect(seen.length).toBe(Math.ceil(texts.length / 4));
  expect(texts.length).toBeGreaterThan(25);
  const held = Math.max(...seen.map((bytes) => bytes - seen[0]!)) / html.length;
  console.log(
    `${html.length} characters, ${texts.length} texts; most held while counting: ${held.toFixed(2)} bytes a character`,
  );
  // Every text prepared before counting held 4–6 bytes a character by the last text; one at a time, none.
  expect(held).toBeLessThan(1);
}, 120_000);
