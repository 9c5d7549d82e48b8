/** Options of `extract`, `merge` and `remarkGlossa`, resolved once. */

/** The Markdown a project writes: which syntax beyond CommonMark is recognised and kept. */
export type MarkdownDialect = 'auto' | 'commonmark' | 'gfm' | 'vitepress' | 'docusaurus' | 'starlight';

export const DIALECTS: readonly MarkdownDialect[] = [
  'auto',
  'commonmark',
  'gfm',
  'vitepress',
  'docusaurus',
  'starlight',
];

/** What a dialect turns on (see the readme's "Dialects"). */
export interface DialectFeatures {
  /** `> [!NOTE]` … : the marker stays as written. */
  readonly alerts: boolean;
  /** `## Title {#id}`: the anchor stays as written. */
  readonly headingIds: boolean;
  /** A paragraph that is only `[[toc]]` stays as written. */
  readonly toc: boolean;
  /** Fenced-line containers found with markdown-it-container: all of them, only the ones with a bare title, or none. */
  readonly lineContainers: 'all' | 'legacy' | 'none';
  /** A paragraph of VitePress snippet imports (`<<< @/snippets/a.js{2}`) stays as written. */
  readonly snippets: boolean;
  /** Vue's `{{ expression }}` in text (VitePress): kept as a code. */
  readonly interpolation: boolean;
  /** An inline footnote `^[note]` (markdown-it-footnote, VitePress): its markers stay as written around the note. */
  readonly inlineFootnotes: boolean;
  /** Emoji shortcodes (`:tada:`): kept as codes, never translated or pseudo-localized. */
  readonly emoji: boolean;
  /**
   * A translated heading without an explicit id gets its source's id as `{#id}`, computed as the
   * framework does (VitePress, Docusaurus), so links to it keep working.
   */
  readonly headingSlugs: 'vitepress' | 'github' | 'none';
  /** remark-directive: `:::type[label]{attrs}` containers, `::leaf[label]`, `:text[label]`. */
  readonly directives: boolean;
}

export interface MarkdownOptions {
  /**
   * The dialect (default `'auto'`: alerts, heading ids and `[[toc]]` kept; `.mdx` files read with
   * remark-directive as Docusaurus and Starlight do, other files' `:::` containers found as VitePress does).
   */
  readonly dialect?: MarkdownDialect;
  /** Path of the file, used as the prefix of every segment key (`docs/intro.md#paragraph-2`). Default `''`. */
  readonly file?: string;
  /** Parse as MDX. Default: `true` when `file` ends with `.mdx`, or for the `docusaurus` dialect. */
  readonly mdx?: boolean;
  /** GitHub Flavored Markdown (tables, footnotes, strikethrough, autolinks). Default `true` (`false` for the `commonmark` dialect). */
  readonly gfm?: boolean;
  /** `$inline$` and `$$block$$` math (never translated). Default `true` (`false` for the `commonmark` dialect). */
  readonly math?: boolean;
  /** Front-matter fields to translate (YAML or TOML; dotted paths reach nested YAML maps). Default `['title', 'description']`. */
  readonly frontmatter?: readonly string[];
  /** MDX JSX attributes to translate: a name (`title`) or `Component.name` (`Card.title`). Default `['alt', 'title', 'label', 'aria-label', 'placeholder']`. */
  readonly mdxAttributes?: readonly string[];
}

export interface ResolvedMarkdownOptions {
  readonly dialect: MarkdownDialect;
  readonly features: DialectFeatures;
  readonly file: string;
  readonly mdx: boolean;
  readonly gfm: boolean;
  readonly math: boolean;
  readonly frontmatter: readonly string[];
  readonly mdxAttributes: readonly string[];
}

function list(value: unknown, name: string, fallback: readonly string[]): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === ''))
    throw new TypeError(
      `option \`${name}\` must be an array of non-empty strings, got ${JSON.stringify(value)}`,
    );
  return Object.freeze([...value]);
}

function flag(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`option \`${name}\` must be a boolean, got ${typeof value}`);
  return value;
}

export function resolveMarkdownOptions(options: MarkdownOptions = {}): ResolvedMarkdownOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  const file = options.file ?? '';
  if (typeof file !== 'string') throw new TypeError(`option \`file\` must be a string, got ${typeof file}`);
  const dialect = options.dialect ?? 'auto';
  if (!DIALECTS.includes(dialect))
    throw new TypeError(
      `option \`dialect\` must be one of ${DIALECTS.map((d) => `'${d}'`).join(', ')}, got ${JSON.stringify(dialect)}`,
    );
  // Docusaurus reads `.md` files as MDX too (its default `markdown.format: 'mdx'`).
  const mdx = flag(options.mdx, 'mdx', file.endsWith('.mdx') || dialect === 'docusaurus');
  return Object.freeze({
    dialect,
    features: dialectFeatures(dialect, mdx),
    file,
    mdx,
    gfm: flag(options.gfm, 'gfm', dialect !== 'commonmark'),
    math: flag(options.math, 'math', dialect !== 'commonmark'),
    frontmatter: list(options.frontmatter, 'frontmatter', ['title', 'description']),
    mdxAttributes: list(options.mdxAttributes, 'mdxAttributes', [
      'alt',
      'title',
      'label',
      'aria-label',
      'placeholder',
    ]),
  });
}

function dialectFeatures(dialect: MarkdownDialect, mdx: boolean): DialectFeatures {
  const common = dialect !== 'commonmark';
  const directives = dialect === 'docusaurus' || dialect === 'starlight' || (dialect === 'auto' && mdx);
  return Object.freeze({
    alerts: common,
    headingIds: dialect === 'auto' || dialect === 'vitepress' || dialect === 'docusaurus',
    toc: dialect === 'auto' || dialect === 'vitepress',
    interpolation: dialect === 'vitepress' || (dialect === 'auto' && !mdx),
    inlineFootnotes: dialect === 'vitepress' || (dialect === 'auto' && !mdx),
    emoji: common,
    headingSlugs: dialect === 'vitepress' ? 'vitepress' : dialect === 'docusaurus' ? 'github' : 'none',
    snippets: dialect === 'vitepress' || (dialect === 'auto' && !mdx),
    lineContainers:
      dialect === 'vitepress' || (dialect === 'auto' && !mdx)
        ? 'all'
        : dialect === 'docusaurus' || (dialect === 'auto' && mdx)
          ? 'legacy'
          : 'none',
    directives,
  });
}
