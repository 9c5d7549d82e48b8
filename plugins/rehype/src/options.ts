/** Options of `extract`, `merge` and `rehypeGlossa`, resolved once. */

export interface HtmlOptions {
  /** Path of the file, the prefix of every segment key (`site/index.html#p-2`). Default `''`. */
  readonly file?: string;
  /** Parse as a fragment (no implied `<html>`, `<head>`, `<body>`). Default: `true` unless the text has `<html` or a doctype. */
  readonly fragment?: boolean;
  /**
   * Vue's `{{ expression }}` in text is a code that never moves or changes (HTML inside VitePress
   * Markdown, Vue templates). Default `false`.
   */
  readonly interpolation?: boolean;
}

export interface ResolvedHtmlOptions {
  readonly file: string;
  readonly fragment: boolean | undefined;
  readonly interpolation: boolean;
}

export function resolveHtmlOptions(options: HtmlOptions = {}): ResolvedHtmlOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  const { file = '', fragment, interpolation = false } = options;
  if (typeof file !== 'string') throw new TypeError(`option \`file\` must be a string, got ${typeof file}`);
  if (fragment !== undefined && typeof fragment !== 'boolean')
    throw new TypeError(`option \`fragment\` must be a boolean, got ${typeof fragment}`);
  if (typeof interpolation !== 'boolean')
    throw new TypeError(`option \`interpolation\` must be a boolean, got ${typeof interpolation}`);
  return Object.freeze({ file, fragment, interpolation });
}

/** The language code of the output (`lang` option of `merge` and the plugin). */
export function checkLang(lang: unknown): string | undefined {
  if (lang === undefined) return undefined;
  if (typeof lang !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(lang))
    throw new TypeError(
      `option \`lang\` must be a BCP 47 language code like "es" or "pt-BR", got ${JSON.stringify(lang)}`,
    );
  return lang;
}
