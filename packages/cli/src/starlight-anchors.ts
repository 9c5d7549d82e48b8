/**
 * `#fragment` links between the pages of a Starlight site, in a translated locale. Astro gives each heading
 * the slug of its text, so a translated heading has a new id and no explicit id can keep the English one:
 * a link written to the English heading (`[x](../guide/#some-heading)`, `[y](#other)`) is sent to the
 * translated heading at the same place (the n-th heading of the page in English is the n-th in the
 * translation). Only relative links are changed: an absolute one (`/guide/#x`) leads to the English page,
 * where the English id is right.
 */
import type { MarkdownConfig } from '@glossa/core';
import { githubSlug, headingAnchors, rewriteLinks } from '@glossa/remark';

/** A page of the locale: its English text and route, and its translated text. */
export interface StarlightPage {
  readonly id: string;
  /** The page's path under the docs folder (`guides/example.md`). */
  readonly path: string;
  readonly source: string;
  readonly translated: string;
}

const SCHEME = /^[a-z][a-z\d+.-]*:/i;
const BASE = 'https://site.invalid/';

/**
 * The route of a page, without its leading `/` (`guides/example/`; `''` for the home page): each folder and
 * the file's name slugged as Astro's content loader does, `index` dropped. A `slug` in its front matter is
 * not read.
 */
export function starlightRoute(path: string): string {
  const slug = path
    .replace(/\.[^./]*$/, '')
    .split('/')
    .map(githubSlug)
    .join('/')
    .replace(/(^|\/)index$/, '');
  return slug === '' ? '' : `${slug}/`;
}

/** A site path as a route key: decoded, lower case, with its trailing `/`. */
function routeOf(pathname: string): string {
  const path = decodeURIComponent(pathname.slice(1))
    .toLowerCase()
    .replace(/(^|\/)index\.html$/, '$1');
  return path === '' || path.endsWith('/') ? path : `${path}/`;
}

/**
 * The translated texts with each relative `#fragment` link to a translated page's heading changed to the
 * translated heading's id. A page whose headings do not line up (another count) keeps its links.
 */
export function rewriteStarlightFragments(
  pages: readonly StarlightPage[],
  markdown: MarkdownConfig,
): Map<string, string> {
  const anchors = new Map<string, Map<string, string>>();
  const byRoute = new Map<string, StarlightPage>();
  for (const page of pages) {
    byRoute.set(starlightRoute(page.path), page);
    const options = { ...markdown, file: page.id };
    const english = headingAnchors(page.source, options);
    const translated = headingAnchors(page.translated, options);
    if (english.length !== translated.length) continue;
    const map = new Map<string, string>();
    for (const [i, id] of english.entries()) if (!map.has(id)) map.set(id, translated[i]!);
    anchors.set(page.id, map);
  }
  const out = new Map<string, string>();
  for (const page of pages) {
    const route = starlightRoute(page.path);
    const text = rewriteLinks(page.translated, { ...markdown, file: page.id }, (destination) => {
      const hash = destination.indexOf('#');
      if (hash === -1 || SCHEME.test(destination) || destination.startsWith('/')) return undefined;
      const path = destination.slice(0, hash);
      let target: StarlightPage | undefined = page;
      if (path !== '') {
        try {
          target = byRoute.get(routeOf(new URL(path, `${BASE}${route}`).pathname));
        } catch {
          return undefined;
        }
      }
      const map = target && anchors.get(target.id);
      let fragment: string;
      try {
        fragment = decodeURIComponent(destination.slice(hash + 1));
      } catch {
        return undefined;
      }
      const id = map?.get(fragment);
      return id === undefined || id === fragment ? undefined : `${path}#${id}`;
    });
    if (text !== page.translated) out.set(page.id, text);
  }
  return out;
}
