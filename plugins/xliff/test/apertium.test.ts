import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { importXliff, translateXliff } from '../src/index.js';

// Real translation: a real @glossa/server over loopback HTTP, its Apertium engine (eng → spa).
let server: GlossaServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'glossa-xliff-'));
  server = await startServer({ dataDir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const xliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en">
  <file id="app">
    <unit id="house">
      <originalData>
        <data id="d1">&lt;a href="/house"&gt;</data>
        <data id="d2">&lt;/a&gt;</data>
      </originalData>
      <segment>
        <source>My brother reads in <pc id="1" dataRefStart="d1" dataRefEnd="d2">the red house</pc>.</source>
      </segment>
    </unit>
    <unit id="dog">
      <segment state="reviewed">
        <source>The black dog</source>
        <target>El perro negro (revisado)</target>
      </segment>
    </unit>
  </file>
</xliff>
`;

test('Apertium eng→spa fills the missing target in place; the reviewed one stays and imports as a human edit', async () => {
  let requests = 0;
  const result = await translateXliff(xliff, {
    targetLanguage: 'es',
    translate: async (segments) => {
      requests++;
      const response = await fetch(`${server.url}/v2/translate`, {
        method: 'POST',
        headers: { Authorization: `Service-Auth-Key ${server.devKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          text: segments.map((s) => s.source),
          source_lang: 'EN',
          target_lang: 'ES',
          tag_handling: 'xml',
          ignore_tags: ['x'],
        }),
      });
      if (response.status !== 200) throw new Error(`translate: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { translations: { text: string }[] };
      return body.translations.map((translation) => translation.text);
    },
  });
  expect(requests).toBe(1);
  expect(result.filled).toBe(1);
  expect(result.xliff).toBe(
    xliff
      .replace('<xliff ', '<xliff trgLang="es" ')
      .replace('      <segment>\n', '      <segment state="translated">\n')
      .replace(
        '</pc>.</source>\n',
        '</pc>.</source>\n        <target>Mi hermano lee en <pc id="1" dataRefStart="d1" dataRefEnd="d2">la casa roja</pc>.</target>\n',
      ),
  );
  expect(importXliff(result.xliff).map((t) => [t.key, t.origin])).toEqual([
    ['house', 'machine'],
    ['dog', 'human'],
  ]);
});
