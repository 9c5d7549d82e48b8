/** The Starlight fixture copied into a fresh site folder, and the environment `glossa` and `astro` run with there. */
import { cp, mkdtemp } from 'node:fs/promises';
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
