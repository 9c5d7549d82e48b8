/**
 * Heading ids as the frameworks compute them, so a translated heading can keep its source's id:
 * VitePress (`@mdit-vue/shared`'s slugify, de-duplicated by markdown-it-anchor) and Docusaurus
 * (`github-slugger`). Each file has its own slugger: a repeated heading gets `-1`, `-2`, ….
 */

export type SlugStyle = 'vitepress' | 'github';

const CONTROL = /[\u0000-\u001f]/g;
const SPECIAL = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const COMBINING = /[\u0300-\u036F]/g;

/** VitePress's slug of a heading's text. */
export function vitepressSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(CONTROL, '')
    .replace(SPECIAL, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** github-slugger's slug: lower case, anything but letters, marks, numbers, `_`, `-` and spaces removed, spaces to `-`. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A per-file slugger: the same text twice gives `slug`, then `slug-1`. */
export function createSlugger(style: SlugStyle): (text: string) => string {
  const seen = new Map<string, number>();
  const base = style === 'vitepress' ? vitepressSlug : githubSlug;
  return (text) => {
    const slug = base(text);
    if (!seen.has(slug)) {
      seen.set(slug, 0);
      return slug;
    }
    let count = seen.get(slug)!;
    let unique: string;
    do unique = `${slug}-${++count}`;
    while (seen.has(unique));
    seen.set(slug, count);
    seen.set(unique, 0);
    return unique;
  };
}
