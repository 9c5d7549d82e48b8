/** The Starlight fixture copied into a fresh site folder, and the environment `glossa` and `astro` run with there. */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function copyStarlightSite(prefix: string): Promise<{ site: string; env: NodeJS.ProcessEnv }> {
  // Inside this package, so that the site resolves `astro` and `@astrojs/starlight` from its node_modules.
  const site = await mkdtemp(join(packageDir, prefix));
  await cp(join(packageDir, 'test/fixtures/starlight'), site, { recursive: true });
  const { GLOSSA_SERVER_URL: _url, GLOSSA_API_KEY: _key, ...rest } = process.env;
  const env = {
    ...rest,
    GLOSSA_DATA_DIR: join(site, '.server-data'),
    NO_COLOR: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  return { site, env };
}

/** Words Apertium's en→es dictionary lacks (sent back unchanged: a failure), and names kept as they are. */
const GLOSSARY_ES = [
  ['Caching', 'Almacenamiento en caché'],
  ['Hosting', 'Alojamiento'],
  ['Troubleshooting', 'Solución de problemas'],
  ['Reference', 'Referencia'],
];
const KEEP = ['Starlight', 'Yarn'];

/** The es glossary and the names kept, added to the `glossa.config.ts` that `glossa init` wrote in `site`. */
export async function addGlossary(site: string): Promise<void> {
  await writeFile(join(site, 'glossary-es.tsv'), GLOSSARY_ES.map((row) => `${row.join('\t')}\n`).join(''));
  const path = join(site, 'glossa.config.ts');
  const config = await readFile(path, 'utf8');
  const locales = /^ {2}targetLocales: \[[^\]]*\],\n/m.exec(config)?.[0];
  if (locales === undefined) throw new Error(`no targetLocales line in ${path}`);
  await writeFile(
    path,
    config.replace(
      locales,
      `${locales}  glossaries: [{ file: 'glossary-es.tsv', targetLocales: ['es'] }],\n  doNotTranslate: ${JSON.stringify(KEEP)},\n`,
    ),
  );
}
