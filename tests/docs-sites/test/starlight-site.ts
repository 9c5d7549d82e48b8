/** The Starlight fixture copied into a fresh site folder, and the environment `glossa` and `astro` run with there. */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const bin = resolve(packageDir, '../../packages/cli/src/bin.ts');
const astroBin = join(dirname(require.resolve('astro/package.json')), 'astro.js');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real `glossa` CLI (child process, from source) and the site's `astro`, run in `site` with `env`. */
export function siteCommands(site: string, env: NodeJS.ProcessEnv) {
  const run = (command: string[]): Promise<Run> =>
    new Promise((done) => {
      execFile(process.execPath, command, { cwd: site, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  return {
    glossa: (...args: string[]) => run([tsx, '--conditions', '@glossa/source', bin, ...args]),
    astro: (...args: string[]) => run([astroBin, ...args]),
  };
}

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
