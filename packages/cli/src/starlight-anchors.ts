/**
 * `#fragment` links between the pages of a Starlight site, in a translated locale. Astro gives each heading
 * the slug of its text, so a translated heading has a new id and no explicit id can keep the English one:
 * a link written to the English heading (`[x](../guide/#some-heading)`, `[y](#other)`) is sent to the
 * translated heading at the same place (the n-th heading of the page in English is the n-th in the
 * translation). Links in MDX components' `href="…"` (`<LinkCard href>`) are read like Markdown links.
 * Given the locale's route key (`es`, `en-xa`), a root-relative link to a page of the site
 * (`/guide/#x`, `/guide/`) is sent to that page in the locale (`/es/guide/#translated`); without it, such a
 * link is left to the English page, where the English id is right.
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
  locale?: string,
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
      if (SCHEME.test(destination) || destination.startsWith('//')) return undefined;
      if (destination.startsWith('/')) return locale === undefined ? undefined : rootLink(destination);
      const hash = destination.indexOf('#');
      if (hash === -1) return undefined;
      const path = destination.slice(0, hash);
      let target: StarlightPage | undefined = page;
      if (path !== '') {
        try {
          target = byRoute.get(routeOf(new URL(path, `${BASE}${route}`).pathname));
        } catch {
          return undefined;
        }
      }
      const id = translatedId(target, destination.slice(hash + 1));
      return id === undefined ? undefined : `${path}#${id}`;
    });
    if (text !== page.translated) out.set(page.id, text);
  }
  return out;

  /** The translated id for `fragment` (as written) on `target`, when it differs from the English one. */
  function translatedId(target: StarlightPage | undefined, fragment: string): string | undefined {
    const map = target && anchors.get(target.id);
    let decoded: string;
    try {
      decoded = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
    const id = map?.get(decoded);
    return id === undefined || id === decoded ? undefined : id;
  }

  /** `/guide/#x` as the locale's `/es/guide/#y`, when `/guide/` is a page of the site. */
  function rootLink(destination: string): string | undefined {
    const hash = destination.indexOf('#');
    const path = hash === -1 ? destination : destination.slice(0, hash);
    let target: StarlightPage | undefined;
    try {
      target = byRoute.get(routeOf(new URL(path, BASE).pathname));
    } catch {
      return undefined;
    }
    if (target === undefined) return undefined;
    const fragment = hash === -1 ? '' : destination.slice(hash + 1);
    const id = hash === -1 ? undefined : translatedId(target, fragment);
    return `/${locale}${path}${hash === -1 ? '' : `#${id ?? fragment}`}`;
  }
}
