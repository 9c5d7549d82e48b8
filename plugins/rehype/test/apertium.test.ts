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
  dataDir = mkdtempSync(join(tmpdir(), 'glossa-rehype-'));
  server = await startServer({ dataDir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('Apertium eng→spa: a page keeps its links and emphasis around the right words, lang set', async () => {
  const page = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><title>The big house</title></head>',
    '<body>',
    '  <p>My brother reads <em>a new book</em> in <a href="/house">the red house</a>.</p>',
    '  <img src="dog.png" alt="The black dog">',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  const extraction = extract(page);
  const response = await fetch(`${server.url}/v2/translate`, {
    method: 'POST',
    headers: { Authorization: `Service-Auth-Key ${server.devKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      text: extraction.segments.map((segment) => segment.source),
      source_lang: 'EN',
      target_lang: 'ES',
      tag_handling: 'xml',
      ignore_tags: ['x'],
    }),
  });
  if (response.status !== 200) throw new Error(`translate: ${response.status} ${await response.text()}`);
  const { translations } = (await response.json()) as { translations: { text: string }[] };
  const targets = new Map(
    extraction.segments.map((segment, index) => [segment.key, translations[index]!.text]),
  );
  expect(merge(extraction, targets, { lang: 'es' })).toBe(
    [
      '<!doctype html>',
      '<html lang="es">',
      '<head><title>La casa grande</title></head>',
      '<body>',
      '  <p>Mi hermano lee <em>un libro nuevo</em> en <a href="/house">la casa roja</a>.</p>',
      '  <img src="dog.png" alt="El perro negro">',
      '</body>',
      '</html>',
      '',
    ].join('\n'),
  );
});
