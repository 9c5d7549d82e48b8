/** What a user adds to VitePress's docs after the first `glossa translate` (shared by the test and the bench). */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Config keys and a format name, kept as they are. */
export const KEEP = ['footer', 'sidebar', 'Markdown', 'markdown'];
export const GLOSSARY = [
  ['Customization', 'Personalización'],
  ['Default', 'Valor predeterminado'],
  ['Footer', 'Pie de página'],
  ['Prerequisites', 'Requisitos previos'],
  ['Runtime', 'Tiempo de ejecución'],
  ['Sidebar', 'Barra lateral'],
  ['Sitemap', 'Mapa del sitio'],
];

/**
 * The user's answer to the words Apertium left in English: the config keys and names kept
 * (`doNotTranslate`), the other words in an es glossary (`glossary.tsv`), written into `glossa.config.json`.
 */
export async function addVitepressGlossary(site: string): Promise<void> {
  const configPath = join(site, 'glossa.config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  await writeFile(join(site, 'glossary.tsv'), GLOSSARY.map((entry) => entry.join('\t')).join('\n'));
  config.doNotTranslate = KEEP;
  config.glossaries = [{ file: 'glossary.tsv', targetLocales: ['es'] }];
  await writeFile(configPath, JSON.stringify(config, null, 2));
}
