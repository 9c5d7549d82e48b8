/** The link checker the docs-site builds are held to finds a missing page and a missing anchor. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkLinks } from './links.js';

it('resolves clean URLs, folders and anchors against the built files, and reports what leads nowhere', async () => {
  const dist = await mkdtemp(join(tmpdir(), 'glossa-links-'));
  try {
    await mkdir(join(dist, 'es/guide'), { recursive: true });
    await writeFile(join(dist, 'index.html'), '<h1 id="home">Home</h1><a href="/es/">es</a>');
    await writeFile(
      join(dist, 'es/index.html'),
      '<a href="./guide/intro#t%C3%ADtulo">ok</a><a href="guide/intro#title">anchor</a>' +
        '<a href="/es/guide/gone">page</a><a href="https://example.com/x#y">external</a><a href="#top">self</a>',
    );
    await writeFile(join(dist, 'es/guide/intro.html'), '<h2 id="título">Título</h2><a href="../#top">up</a>');
    const report = await checkLinks(dist);
    expect(report).toMatchObject({ pages: 3, links: 6, fragments: 4 });
    expect(report.broken).toEqual([
      { page: '/es/', target: '/es/guide/intro#title', problem: 'no such anchor' },
      { page: '/es/', target: '/es/guide/gone', problem: 'no such page' },
      { page: '/es/', target: '/es/#top', problem: 'no such anchor' },
      { page: '/es/guide/intro', target: '/es/#top', problem: 'no such anchor' },
    ]);
  } finally {
    await rm(dist, { recursive: true, force: true });
  }
});

it('serves the pages of a site built with a base under it: a link without the base leads nowhere', async () => {
  const dist = await mkdtemp(join(tmpdir(), 'glossa-links-'));
  try {
    await mkdir(join(dist, 'es'), { recursive: true });
    await writeFile(join(dist, 'index.html'), '<a href="/docs/es/#t">es</a><a href="/es/">no base</a>');
    await writeFile(
      join(dist, 'es/index.html'),
      '<h1 id="t">T</h1><a href="../">up</a><a href="/docs">home</a>',
    );
    const report = await checkLinks(dist, '/docs');
    expect(report).toMatchObject({ pages: 2, links: 4, fragments: 1 });
    expect(report.broken).toEqual([{ page: '/docs/', target: '/es/', problem: 'no such page' }]);
  } finally {
    await rm(dist, { recursive: true, force: true });
  }
});
