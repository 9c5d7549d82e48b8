/**
 * `#fragment` links between the pages of a Starlight site, in a translated locale. Astro gives each heading
 * the slug of its text, so a translated heading has a new id and no explicit id can keep the English one:
 * a link written to the English heading (`[x](../guide/#some-heading)`, `[y](#other)`) is sent to the
 * translated heading at the same place (the n-th heading of the page in English is the n-th in the
 * translation). Links in MDX components' `href="…"` (`<LinkCard href>`) are read like Markdown links.
 * Given the locale's route key (`es`, `en-xa`), a root-relative link to a page of the site
 * (`/guide/#x`, `/guide/`) is sent to that page in the locale (`/es/guide/#translated`); without it, such a
 * link is left to the English page, where the English id is right. In a site with a `base` (`/docs`), whose
 * Markdown links carry it (Astro does not add it), `/docs/guide/` is sent to `/docs/es/guide/`.
 */
import type { MarkdownConfig } from '@glossa/core';
import { githubSlug, headingOutline, rewriteLinks } from '@glossa/remark';

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

/** A page's `slug:` front matter (Starlight routes the page there), if it has one. */
const SLUG =
  /^(---\r?\n(?:(?!---\r?\n)[^\n]*\n)*?)slug:[ \t]*(['"]?)([^'"\n]*?)\2[ \t]*(\r?\n(?:[^\n]*\n)*?---\r?\n)/;

export function frontmatterSlug(text: string): string | undefined {
  const slug = SLUG.exec(text)?.[3]?.replace(/^\/+|\/+$/g, '');
  return slug === undefined ? undefined : slug;
}

/**
 * The route of a page, without its leading `/` (`guides/example/`; `''` for the home page): its `slug`
 * front matter when `text` has one, else each folder and the file's name slugged as Astro's content loader
 * does, `index` dropped.
 */
export function starlightRoute(path: string, text = ''): string {
  const own = frontmatterSlug(text);
  if (own !== undefined) return own === '' || own === 'index' ? '' : `${own}/`;
  const slug = path
    .replace(/\.[^./]*$/, '')
    .split('/')
    .map(githubSlug)
    .join('/')
    .replace(/(^|\/)index$/, '');
  return slug === '' ? '' : `${slug}/`;
}

/**
 * Pairs of (English, translated) heading indexes that are the same heading. With as many headings of the
 * same depths, each one is its counterpart. Otherwise (a heading added or removed in the translation) the
 * run from the start and the run from the end whose depths agree are paired, except any heading both runs
 * claim (it could be either: its links stay as written), and the headings between the runs stay unpaired.
 */
export function alignHeadings(
  english: readonly { readonly depth: number }[],
  translated: readonly { readonly depth: number }[],
): [number, number][] {
  const shorter = Math.min(english.length, translated.length);
  let head = 0;
  while (head < shorter && english[head]!.depth === translated[head]!.depth) head++;
  if (english.length === translated.length && head === shorter)
    return english.map((_, i) => [i, i] as [number, number]);
  let tail = 0;
  while (
    tail < shorter &&
    english[english.length - 1 - tail]!.depth === translated[translated.length - 1 - tail]!.depth
  )
    tail++;
  const fromHead: [number, number][] = [];
  for (let i = 0; i < head; i++) fromHead.push([i, i]);
  const fromTail: [number, number][] = [];
  for (let i = 1; i <= tail; i++) fromTail.push([english.length - i, translated.length - i]);
  const claimed = (pairs: [number, number][], side: 0 | 1) => new Set(pairs.map((pair) => pair[side]));
  const [headEnglish, headTranslated] = [claimed(fromHead, 0), claimed(fromHead, 1)];
  const [tailEnglish, tailTranslated] = [claimed(fromTail, 0), claimed(fromTail, 1)];
  return [
    ...fromHead.filter(([e, t]) => !tailEnglish.has(e) && !tailTranslated.has(t)),
    ...fromTail.filter(([e, t]) => !headEnglish.has(e) && !headTranslated.has(t)),
  ];
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
 * translated heading's id. Where the translation has another number of headings, only those that line up
 * from the start or the end (`alignHeadings`) are followed; links to the others keep their id.
 */
export function rewriteStarlightFragments(
  pages: readonly StarlightPage[],
  markdown: MarkdownConfig,
  locale?: string,
  base = '',
): Map<string, string> {
  const prefix = base.replace(/\/+$/, '');
  const anchors = new Map<string, Map<string, string>>();
  const byRoute = new Map<string, StarlightPage>();
  for (const page of pages) {
    byRoute.set(starlightRoute(page.path, page.source), page);
    const options = { ...markdown, file: page.id };
    const english = headingOutline(page.source, options);
    const translated = headingOutline(page.translated, options);
    const map = new Map<string, string>();
    for (const [from, to] of alignHeadings(english, translated))
      if (!map.has(english[from]!.id)) map.set(english[from]!.id, translated[to]!.id);
    anchors.set(page.id, map);
  }
  const out = new Map<string, string>();
  for (const page of pages) {
    const route = starlightRoute(page.path, page.source);
    const linked = rewriteLinks(page.translated, { ...markdown, file: page.id }, (destination) => {
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
    // A `slug:` is the page's route from the site's root: the locale's page is under the locale's.
    const text =
      locale === undefined
        ? linked
        : linked.replace(SLUG, (whole, head: string, quote: string, slug: string, tail: string) => {
            const bare = slug.replace(/^\/+|\/+$/g, '');
            return bare === locale || bare.startsWith(`${locale}/`)
              ? whole
              : `${head}slug: ${quote}${locale}${bare === '' || bare === 'index' ? '' : `/${bare}`}${quote}${tail}`;
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

  /** `/guide/#x` as the locale's `/es/guide/#y` (`/docs/guide/` as `/docs/es/guide/`), when `/guide/` is a page of the site. */
  function rootLink(destination: string): string | undefined {
    const hash = destination.indexOf('#');
    const full = hash === -1 ? destination : destination.slice(0, hash);
    if (prefix !== '' && full !== prefix && !full.startsWith(`${prefix}/`)) return undefined;
    const path = full.slice(prefix.length) || '/';
    let target: StarlightPage | undefined;
    try {
      target = byRoute.get(routeOf(new URL(path, BASE).pathname));
    } catch {
      return undefined;
    }
    if (target === undefined) return undefined;
    const fragment = hash === -1 ? '' : destination.slice(hash + 1);
    const id = hash === -1 ? undefined : translatedId(target, fragment);
    return `${prefix}/${locale}${path}${hash === -1 ? '' : `#${id ?? fragment}`}`;
  }
}
