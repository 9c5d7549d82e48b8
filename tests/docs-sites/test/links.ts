/**
 * A link checker over a built static site: every `<a href>` of every HTML page is resolved against the
 * built files the way a static host with clean URLs serves them (`/guide/x` → `guide/x.html`, `/guide/` →
 * `guide/index.html`), and its `#fragment` against the `id`s (and `<a name>`s) of the page it leads to.
 * External links (a scheme, `//host`) are not followed. For a site built with a base (`/docs`), which its
 * files do not hold, the pages are served under the base: a link outside it leads to no page.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

export interface BrokenLink {
  /** The page the link is on, as a site path (`/es/guide/frontmatter`). */
  readonly page: string;
  /** The link resolved to a site path with its fragment (`/es/reference/site-config#title`). */
  readonly target: string;
  readonly problem: 'no such page' | 'no such anchor';
}

export interface LinkReport {
  readonly pages: number;
  /** Internal links checked, and how many of them carry a fragment. */
  readonly links: number;
  readonly fragments: number;
  readonly broken: BrokenLink[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };
const decode = (text: string) =>
  text
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));

/** The site path of a built HTML file (clean URLs: no `.html`, `index` is its folder). */
function sitePath(file: string): string {
  const path = `/${file.split(sep).join('/')}`.replace(/\.html$/, '');
  return path.endsWith('/index') ? path.slice(0, -'index'.length) : path;
}

/** The built file a site path is served from, or undefined. */
function fileFor(dist: string, path: string): string | undefined {
  const candidates = path.endsWith('/')
    ? [`${path}index.html`]
    : [path, `${path}.html`, `${path}/index.html`];
  return candidates
    .map((candidate) => join(dist, ...candidate.split('/')))
    .find((file) => existsSync(file) && statSync(file).isFile());
}

export async function checkLinks(dist: string, base = ''): Promise<LinkReport> {
  const files = (await readdir(dist, { recursive: true }))
    .filter((file) => file.endsWith('.html'))
    .map((file) => join(dist, file));
  const ids = new Map<string, Set<string>>();
  const pages = new Map<string, string>();
  for (const file of files) {
    const html = await readFile(file, 'utf8');
    pages.set(file, html);
    ids.set(
      file,
      new Set([...html.matchAll(/<[a-z][^>]*?\s(?:id|name)="([^"]*)"/gi)].map((m) => decode(m[1]!))),
    );
  }
  const broken: BrokenLink[] = [];
  let links = 0;
  let fragments = 0;
  for (const [file, html] of pages) {
    const page = base + sitePath(relative(dist, file));
    for (const match of html.matchAll(/<a\s[^>]*?href="([^"]*)"/gi)) {
      const href = decode(match[1]!);
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) continue;
      const url = new URL(href, `http://site${page}`);
      const path = posix.normalize(decodeURIComponent(url.pathname));
      const fragment = decodeURIComponent(url.hash.slice(1));
      links++;
      const served =
        path === base
          ? '/'
          : base === '' || path.startsWith(`${base}/`)
            ? path.slice(base.length)
            : undefined;
      const target = served === undefined ? undefined : fileFor(dist, served);
      const where = `${path}${url.hash ? `#${fragment}` : ''}`;
      if (!target) {
        broken.push({ page, target: where, problem: 'no such page' });
        continue;
      }
      if (!fragment) continue;
      fragments++;
      if (!ids.get(target)?.has(fragment)) broken.push({ page, target: where, problem: 'no such anchor' });
    }
  }
  return { pages: pages.size, links, fragments, broken };
}
