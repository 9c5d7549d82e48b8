/** Options of `extract`, `merge` and `remarkGlossa`, resolved once. */

export interface MarkdownOptions {
  /** Path of the file, used as the prefix of every segment key (`docs/intro.md#paragraph-2`). Default `''`. */
  readonly file?: string;
  /** Parse as MDX. Default: `true` when `file` ends with `.mdx`. */
  readonly mdx?: boolean;
  /** GitHub Flavored Markdown (tables, footnotes, strikethrough, autolinks). Default `true`. */
  readonly gfm?: boolean;
  /** `$inline$` and `$$block$$` math (never translated). Default `true`. */
  readonly math?: boolean;
  /** Front-matter fields to translate (YAML or TOML; dotted paths reach nested YAML maps). Default `['title', 'description']`. */
  readonly frontmatter?: readonly string[];
  /** MDX JSX attributes to translate: a name (`title`) or `Component.name` (`Card.title`). Default `['alt', 'title', 'label', 'aria-label', 'placeholder']`. */
  readonly mdxAttributes?: readonly string[];
}

export interface ResolvedMarkdownOptions {
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
  return Object.freeze({
    file,
    mdx: flag(options.mdx, 'mdx', file.endsWith('.mdx')),
    gfm: flag(options.gfm, 'gfm', true),
    math: flag(options.math, 'math', true),
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
