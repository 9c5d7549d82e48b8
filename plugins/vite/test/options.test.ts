/** The plugin's config: the glossaries' same-as-source entries join `doNotTranslate`. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGlossaConfig } from '../src/options.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-vite-options-'));
  await writeFile(join(dir, 'brands.tsv'), 'Vue\tVue\nVite\tVite\nHome\tInicio\n');
  await writeFile(
    join(dir, 'terms.csv'),
    'source,target,source_lang,target_lang\nPinia,Pinia,en,es\nStore,Tienda,en,es\n',
  );
  await writeFile(
    join(dir, 'glossa.config.mjs'),
    `export default { targetLocales: ['es'], glossaries: ['brands.tsv', { file: 'terms.csv' }] };\n`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('doNotTranslate from the glossaries', () => {
  it('adds the entries whose target is their source to the options’ list, in every locale', async () => {
    const config = await resolveGlossaConfig(
      { doNotTranslate: ['Acme'], configFile: join(dir, 'glossa.config.mjs') },
      dir,
    );
    expect([...config.doNotTranslate].sort()).toEqual(['Acme', 'Pinia', 'Vite', 'Vue']);
  });

  it('leaves the list as it is without glossaries', async () => {
    const config = await resolveGlossaConfig({ doNotTranslate: ['Acme'], configFile: false }, dir);
    expect(config.doNotTranslate).toEqual(['Acme']);
  });
});
