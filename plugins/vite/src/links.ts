/**
 * Absolute links between localized pages: in the `es` version of a page, `href="/about.html"` leads to
 * `/es/about.html` (the configured output layout, under Vite's `base`; `/` → `/es/`, `/about` → `/es/about`
 * when `about.html` is a page). Relative links already stay in the locale's folder; external links,
 * assets and pages that are not localized are left alone. The rewrites are byte edits of the attribute,
 * so the rest of the page, and links inside translated sentences, keep their bytes.
 */
import type { Edit } from '@glossa/core';
import type { HtmlExtraction } from '@glossa/rehype';

type Tree = HtmlExtraction['tree'];
type Node = Tree | Tree['children'][number];
type Position = { start: { offset?: number }; end: { offset?: number } };

export interface LinkOptions {
  /** Vite's `base`: `/`, `/app/` or a URL (its path is the links' prefix). */
  readonly base: string;
  /** Where a localized page goes, with `{locale}` and `{path}`. */
  readonly output: string;
  /** Whether a page (its path from the root, `/`-separated, e.g. `blog/index.html`) is localized. */
  readonly isPage: (path: string) => boolean;
  /** Identifies the rewrite in the result cache (base, output, the localized pages). */
  readonly id: string;
}

const LINKING = new Set(['a', 'area']);

/** Edits that point the page's absolute links to localized pages at `locale`'s version of them. */
export function linkEdits(tree: Tree, locale: string, options: LinkOptions): Edit[] {
  const prefix = basePath(options.base);
  const edits: Edit[] = [];
  const visit = (node: Node) => {
    if (node.type === 'element' && LINKING.has(node.tagName)) {
      const href = node.properties['href'];
      const at = (node.data as { position?: { properties?: Record<string, Position | undefined> } })?.position
        ?.properties?.['href'];
      const localized = typeof href === 'string' ? localizeHref(href, locale, prefix, options) : undefined;
      if (localized !== undefined && at?.start.offset !== undefined && at.end.offset !== undefined) {
        edits.push({
          start: at.start.offset,
          end: at.end.offset,
          text: `href="${escapeAttribute(localized)}"`,
        });
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
    if (node.type === 'element' && node.tagName === 'template' && node.content) visit(node.content);
  };
  visit(tree);
  return edits;
}

/** The same link to `locale`'s version of the page, or undefined when it is not a localized page. */
export function localizeHref(
  href: string,
  locale: string,
  prefix: string,
  options: Pick<LinkOptions, 'output' | 'isPage'>,
): string | undefined {
  if (!href.startsWith(prefix) || href.startsWith('//')) return undefined;
  const cut = href.search(/[?#]/);
  const path = href.slice(prefix.length, cut < 0 ? undefined : cut);
  const suffix = cut < 0 ? '' : href.slice(cut);
  let decoded: string;
  try {
    decoded = decodeURI(path);
  } catch {
    return undefined; // not a URL a page could have
  }
  // The page the URL serves: the file name as written, or with what a link may leave out of it.
  const completions =
    decoded === '' || decoded.endsWith('/')
      ? ['index.html']
      : decoded.endsWith('.html')
        ? ['']
        : ['.html', '/index.html'];
  for (const added of completions) {
    if (!options.isPage(decoded + added)) continue;
    const file = outputPath(options.output, locale, path + added);
    // Left out again when the layout puts it at the end (`es/index.html` → `es/`).
    const shown = added && file.endsWith(added) ? file.slice(0, -added.length) : file;
    return `${prefix}${shown}${suffix}`;
  }
  return undefined;
}

/** Where a page's `locale` version goes: `output` with `{locale}` and `{path}` filled in. */
export function outputPath(pattern: string, locale: string, path: string): string {
  return pattern.replaceAll('{locale}', locale).replaceAll('{path}', path);
}

/** `/` or `/app/` for a path base; the path of a URL base. */
export function basePath(base: string): string {
  const path = /^https?:/.test(base) ? new URL(base).pathname : base;
  return path.endsWith('/') ? path : `${path}/`;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
