import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { extract, merge } from '../src/index.js';

// Real translation: a real @glossa/server over loopback HTTP, its Apertium engine (eng → spa).
let server: GlossaServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'glossa-remark-'));
  server = await startServer({ dataDir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function translate(texts: readonly string[]): Promise<string[]> {
  const response = await fetch(`${server.url}/v2/translate`, {
    method: 'POST',
    headers: { Authorization: `Service-Auth-Key ${server.devKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      text: texts,
      source_lang: 'EN',
      target_lang: 'ES',
      tag_handling: 'xml',
      ignore_tags: ['x'],
    }),
  });
  if (response.status !== 200) throw new Error(`translate: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { translations: { text: string }[] };
  return body.translations.map((translation) => translation.text);
}

test('Apertium eng→spa: links and emphasis mid-sentence come back around the right words', async () => {
  const page = [
    '# The big house',
    '',
    'The cat is in [the red house](https://example.com/house) every day.',
    '',
    'My brother reads *a new book* with `npm install` and [the dog](https://example.com/dog "The black dog").',
    '',
  ].join('\n');
  const extraction = extract(page, { file: 'page.md' });
  const targets = await translate(extraction.segments.map((segment) => segment.source));
  const out = merge(
    extraction,
    new Map(extraction.segments.map((segment, index) => [segment.key, targets[index]!])),
  );
  const lines = out.split('\n');
  expect(lines[0]).toMatch(/^# La casa grande$/);
  // The link wraps the translation of "the red house"; the URL is untouched.
  expect(lines[2]).toBe('El gato es en [la casa roja](https://example.com/house) todos los días.');
  // Emphasis stays around "a new book", inline code and the link's URL untouched, the link title translated.
  expect(lines[4]).toBe(
    'Mi hermano lee *un libro nuevo* con `npm install` y [el perro](https://example.com/dog "El perro negro").',
  );
});
