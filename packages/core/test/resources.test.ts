import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupGlossaries,
  glossaryHash,
  parseGlossary,
  ResourceSyncError,
  syncGlossary,
  syncMemory,
  syncStyleList,
  TranslationLock,
  writeTmx,
} from '../src/index.js';
import { startTestServer } from './helpers/server.js';

describe('glossary files', () => {
  it('reads TSV and CSV (quoted fields, pair columns) to the same terms and hash', () => {
    const tsv = parseGlossary('car\tcoche\nred car\tcoche rojo\n\n', 'terms.tsv');
    const csv = parseGlossary('red car,coche rojo,en,es\n"car","coche"\n"a, ""b""",x,en,fr\n', 'terms.csv', {
      sourceLang: 'en',
      targetLang: 'es',
    });
    expect(tsv).toEqual([
      { source: 'car', target: 'coche' },
      { source: 'red car', target: 'coche rojo' },
    ]);
    expect(glossaryHash(csv)).toBe(glossaryHash(tsv));
    expect(parseGlossary('"a, ""b""",x\n', 'q.csv')).toEqual([{ source: 'a, "b"', target: 'x' }]);
  });

  it('skips a byte order mark', () => {
    expect(parseGlossary('\uFEFFcar,coche\r\n', 'bom.csv')).toEqual([{ source: 'car', target: 'coche' }]);
    expect(parseGlossary('\uFEFFcar\tcoche\n', 'bom.tsv')).toEqual([{ source: 'car', target: 'coche' }]);
  });

  it.each([
    ['car\tcoche\ncar\tauto\n', 'g.tsv', "g.tsv:2: duplicate source term 'car' (first on line 1)"],
    ['car\t\n', 'g.tsv', 'g.tsv:1: empty target term'],
    ['"car,coche\n', 'g.csv', 'g.csv:1: unterminated quoted field'],
    ['\n\n', 'g.tsv', 'g.tsv: no glossary entries'],
  ])('refuses bad content with file and line: %j', (text, file, message) => {
    expect(() => parseGlossary(text, file)).toThrow(ResourceSyncError);
    expect(() => parseGlossary(text, file)).toThrow(message);
  });
});

describe('resource sync against the real server (each test turns on when its endpoint lands)', () => {
  let env: Awaited<ReturnType<typeof startTestServer>>;
  let dir: string;
  const has = async (path: string) => {
    const response = await fetch(new URL(path, env.server.url), {
      headers: { Authorization: `Service-Auth-Key ${env.server.devKey}` },
    });
    return response.status !== 404;
  };
  beforeAll(async () => {
    env = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), 'glossa-resources-'));
  });
  afterAll(async () => {
    await env?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('glossaries: created once under a content-hash name, reused, replaced and cleaned up on change', async (ctx) => {
    if (!(await has('/v2/glossaries'))) ctx.skip('the server has no /v2/glossaries yet');
    const file = join(dir, 'terms.tsv');
    await writeFile(file, 'car\tcoche\n');
    const pair = { file, sourceLang: 'en', targetLang: 'es' };
    const first = await syncGlossary(env.client, pair);
    const again = await syncGlossary(env.client, pair);
    expect(first.created).toBe(true);
    expect(again).toEqual({ ...first, created: false });
    expect(first.name).toBe(`glossa:terms:en-es:${first.hash}`);
    await writeFile(file, 'car\tauto\n');
    const changed = await syncGlossary(env.client, pair);
    expect(changed.created).toBe(true);
    expect(await cleanupGlossaries(env.client, [changed])).toEqual([first.glossaryId]);
    expect((await env.client.glossariesV2.list()).map((g) => g.glossary_id)).toEqual([changed.glossaryId]);
  });

  it('memories: a TMX is imported through a job once and reused', async (ctx) => {
    if (!(await has('/v3/translation_memories'))) ctx.skip('the server has no /v3/translation_memories yet');
    const file = join(dir, 'memory.tmx');
    await writeFile(
      file,
      '<?xml version="1.0"?><tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="x" creationtool="t" creationtoolversion="1"/><body><tu><tuv xml:lang="en"><seg>Hello</seg></tuv><tuv xml:lang="es"><seg>Hola</seg></tuv></tu></body></tmx>',
    );
    const first = await syncMemory(env.client, { file });
    const again = await syncMemory(env.client, { file });
    expect(first.created).toBe(true);
    expect(again).toEqual({ ...first, created: false });
  });

  it('human edits harvested from the lock into a memory are imported once and applied to translation', async (ctx) => {
    if (!(await has('/v3/translation_memories'))) ctx.skip('the server has no /v3/translation_memories yet');
    const lock = await TranslationLock.open(join(dir, 'glossa.lock'));
    lock.record('es', 'home#title', 'Welcome to the site', 'Bienvenido al sitio');
    const edits = lock.humanEdits('es', [
      { key: 'home#title', source: 'Welcome to the site', target: 'Te damos la bienvenida' },
    ]);
    expect(edits).toEqual([
      { key: 'home#title', source: 'Welcome to the site', target: 'Te damos la bienvenida' },
    ]);
    const content = writeTmx(edits, { sourceLang: 'en', targetLang: 'es' });
    const memory = await syncMemory(env.client, { file: 'human-edits.tmx', content });
    expect(memory.created).toBe(true);
    expect((await syncMemory(env.client, { file: 'human-edits.tmx', content })).created).toBe(false);
    const [translation] = await env.client.translateText(['Welcome to the site'], {
      targetLang: 'es',
      sourceLang: 'en',
      translationMemoryId: memory.translationMemoryId,
    });
    expect(translation!.text).toBe('Te damos la bienvenida');
  });

  it('style lists: created from config once and reused', async (ctx) => {
    if (!(await has('/v3/style_rules'))) ctx.skip('the server has no /v3/style_rules yet');
    const config = {
      name: 'docs',
      language: 'en',
      customInstructions: [{ label: 'tone', prompt: 'Be brief.' }],
    };
    const first = await syncStyleList(env.client, config);
    const again = await syncStyleList(env.client, config);
    expect(first.created).toBe(true);
    expect(again).toEqual({ ...first, created: false });
  });
});

describe('harvesting human edits', () => {
  it('writes edits with codes as TMX 1.4 inline elements', () => {
    expect(
      writeTmx(
        [
          {
            source: 'Open <g id="1">the menu</g> &amp; <x id="2"/>',
            target: 'Abre <g id="1">el menú</g> y <x id="2"/>',
          },
        ],
        {
          sourceLang: 'en',
          targetLang: 'es',
        },
      ),
    ).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<tmx version="1.4">',
        '  <header creationtool="glossa" creationtoolversion="1" segtype="sentence" o-tmf="glossa" adminlang="en" srclang="en" datatype="xml"/>',
        '  <body>',
        '    <tu>',
        '      <tuv xml:lang="en"><seg>Open <bpt i="1">&lt;g id=&quot;1&quot;&gt;</bpt>the menu<ept i="1">&lt;/g&gt;</ept> &amp; <ph x="2">&lt;x id=&quot;2&quot;/&gt;</ph></seg></tuv>',
        '      <tuv xml:lang="es"><seg>Abre <bpt i="1">&lt;g id=&quot;1&quot;&gt;</bpt>el menú<ept i="1">&lt;/g&gt;</ept> y <ph x="2">&lt;x id=&quot;2&quot;/&gt;</ph></seg></tuv>',
        '    </tu>',
        '  </body>',
        '</tmx>',
        '',
      ].join('\n'),
    );
  });
});
