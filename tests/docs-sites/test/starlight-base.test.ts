import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLinks } from './links.js';
import { addGlossary, copyStarlightSite, siteCommands } from './starlight-site.js';

let site: string;
let glossa: ReturnType<typeof siteCommands>['glossa'];
let astro: ReturnType<typeof siteCommands>['astro'];
const edit = async (path: string, from: string, to: string) => {
  const text = await readFile(join(site, path), 'utf8');
  expect(text).toContain(from);
  await writeFile(join(site, path), text.replace(from, to));
};

beforeAll(async () => {
  let env: NodeJS.ProcessEnv;
  ({ site, env } = await copyStarlightSite('.tmp-starlight-base-'));
  ({ glossa, astro } = siteCommands(site, env));
  await edit(
    'astro.config.mjs',
    'export default defineConfig({\n',
    "export default defineConfig({\n\tbase: '/docs',\n",
  );
  await edit(
    'src/content/docs/index.mdx',
    'href="/guides/example/#further-reading"',
    'href="/docs/guides/example/#further-reading"',
  );
  // A page routed by its `slug` front matter, not by its path.
  await edit(
    'src/content/docs/reference/example.md',
    'title: Example Reference\n',
    'title: Example Reference\nslug: guides/renamed\n',
  );
});
afterAll(async () => {
  if (site) await rm(site, { recursive: true, force: true });
});

it("with base '/docs', a root-relative link that carries the base leads to the es page under it; a slug: front matter page gets its es slug; nothing broken in es", async () => {
  const init = await glossa('init', '--to', 'es');
  expect(init.code, init.stderr + init.stdout).toBe(0);
  await addGlossary(site);
  const translate = await glossa('translate', '--json');
  expect(translate.stdout, translate.stderr).toMatch(/^\{/);
  expect(JSON.parse(translate.stdout).failures).toEqual([]);
  const home = await readFile(join(site, 'src/content/docs/es/index.mdx'), 'utf8');
  expect(home).toMatch(/<LinkCard title="[^"]+" href="\/docs\/es\/guides\/example\/#[^"]+" \/>/);
  expect(home).not.toContain('#further-reading"');

  // The slug is the es page's own, under es/ (not the English page's: Astro would keep one of the two).
  const renamed = await readFile(join(site, 'src/content/docs/es/reference/example.md'), 'utf8');
  expect(renamed).toContain('\nslug: es/guides/renamed\n');
  // A rerun writes nothing (the es slug is what the next write gives again).
  const again = await glossa('translate', '--json');
  expect(JSON.parse(again.stdout)).toMatchObject({ requests: 0, written: [] });

  const build = await astro('build');
  expect(build.code, build.stderr + build.stdout).toBe(0);
  // Each at its slug with its own text (not one of the two, nor Starlight's English fallback in es).
  const h1 = (html: string) => html.match(/<h1 id="_top"[^>]*>([^<]*)</)?.[1];
  const renamedEnglish = await readFile(join(site, 'dist/guides/renamed/index.html'), 'utf8');
  expect(renamedEnglish).toContain('<html lang="en"');
  expect(h1(renamedEnglish)).toBe('Example Reference');
  const renamedEs = await readFile(join(site, 'dist/es/guides/renamed/index.html'), 'utf8');
  expect(renamedEs).toContain('<html lang="es"');
  expect(h1(renamedEs)).toBeDefined();
  expect(h1(renamedEs)).not.toBe('Example Reference');
  const links = await checkLinks(join(site, 'dist'), '/docs');
  // Starlight 0.37.7 writes its own sidebar and site-title links without the base (`/getting-started/`,
  // `/es/getting-started/`): broken in English as in es. Compared without base and locale.
  const bare = (path: string) => path.replace(/^\/docs(?=\/|$)/, '').replace(/^\/es(?=\/|$)/, '') || '/';
  const key = (link: { page: string; target: string }) => `${bare(link.page)} ${bare(link.target)}`;
  const english = new Set(links.broken.filter((link) => !link.page.startsWith('/docs/es/')).map(key));
  expect(english.size).toBeGreaterThan(0);
  const es = links.broken.filter((link) => link.page.startsWith('/docs/es/') && !english.has(key(link)));
  expect(es).toEqual([]);
  expect(links.pages).toBeGreaterThanOrEqual(10);
  // The es home page's card leads to the es guide under the base, at the translated heading's id (checked above).
  const built = await readFile(join(site, 'dist/es/index.html'), 'utf8');
  expect(built).toMatch(/href="\/docs\/es\/guides\/example\/#[^"]+"/);
  expect(built).not.toContain('href="/docs/guides/example/#further-reading"');
}, 300_000);
