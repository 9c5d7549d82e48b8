/** The shapes of the project config (`GlossaConfig`) and of its resolved form (`ResolvedConfig`). */
import type { TranslateRequest } from '@glossa/protocol';
import type { StyleListConfig } from './resources/sync.js';

/** Which adapter reads a file; by default chosen by extension (.md/.mdx, .html/.htm, .xlf/.xliff, .json). */
export type AdapterName = 'markdown' | 'html' | 'xliff' | 'i18next';

/** The message syntaxes of JSON catalogs (see @glossa/i18next's `extractCatalog`). */
export const CATALOG_SYNTAXES = ['auto', 'i18next', 'icu', 'vue', 'docusaurus'] as const;
export type CatalogSyntaxName = (typeof CATALOG_SYNTAXES)[number];

export interface FilesConfig {
  /** Globs (or files, or folders) relative to the project root, e.g. `docs/**\/*.md`. */
  readonly include: string | readonly string[];
  readonly exclude?: string | readonly string[];
  /** Default: by extension. */
  readonly adapter?: AdapterName;
  /**
   * JSON catalogs: the message syntax of their values (`i18next` `{{x}}`, `icu` as FormatJS / next-intl /
   * i18next-icu read it, `vue` as vue-i18n). Default `auto`: detected per file and reported.
   */
  readonly syntax?: CatalogSyntaxName;
  /**
   * Where each output goes, relative to the root: `{locale}`, `{path}` (path relative to the glob's
   * base folder), `{dir}`, `{name}` (without extension), `{ext}` (with the dot). Default
   * `<out>/{locale}/{path}`.
   */
  readonly output?: string;
}

export type CacheConfig =
  | false
  | { readonly store?: 'file'; readonly path?: string; readonly max?: number }
  | { readonly store: 'memory'; readonly max?: number }
  | {
      readonly store: 'redis';
      readonly url: string;
      readonly prefix?: string;
      readonly ttlSeconds?: number;
      readonly max?: number;
    };

/** The Markdown a project writes (see @glossa/remark's readme, "Dialects"). */
export const MARKDOWN_DIALECTS = [
  'auto',
  'commonmark',
  'gfm',
  'vitepress',
  'docusaurus',
  'starlight',
] as const;
export type MarkdownDialectName = (typeof MARKDOWN_DIALECTS)[number];

/** How Markdown files are read (passed to @glossa/remark). */
export interface MarkdownConfig {
  /** Default `'auto'`. */
  readonly dialect?: MarkdownDialectName;
  /** Front-matter fields to translate. Default `['title', 'description']`. */
  readonly frontmatter?: readonly string[];
  /** MDX JSX attributes to translate (`title` or `Card.title`). */
  readonly mdxAttributes?: readonly string[];
}

export interface GlossaConfig {
  /** For editors: the JSON schema of the file (ignored). */
  readonly $schema?: string;
  /** Language of the source files. Default `en`. */
  readonly sourceLang?: string;
  /** Locales to produce, e.g. `['es', 'en-XA']` (the CLI's `--to` overrides). */
  readonly targetLocales?: readonly string[];
  readonly files?: readonly (string | FilesConfig)[];
  /** Output root for files without their own `output`. Default `i18n`. */
  readonly out?: string;
  /** Glossary files (TSV, CSV), for every target locale unless `targetLocales` says otherwise. */
  readonly glossaries?: readonly (
    | string
    | { readonly file: string; readonly targetLocales?: readonly string[] }
  )[];
  /**
   * Terms never translated, in every locale (pseudo-locales included): brand and product names,
   * keyboard shortcuts. Whole words, case-sensitive.
   */
  readonly doNotTranslate?: readonly string[];
  /** Translation memories (TMX). `threshold`: minimum fuzzy match, percent. */
  readonly memories?: readonly (
    | string
    | { readonly file: string; readonly targetLocales?: readonly string[]; readonly threshold?: number }
  )[];
  /** Style rule lists, kept in sync on the service; applied to their `language`. */
  readonly styleLists?: readonly StyleListConfig[];
  /** Persistent translation cache. Default: a file store at `.glossa/cache.jsonl`. `false`: none. */
  readonly cache?: CacheConfig;
  /** The lock file. Default `glossa.lock`; `false`: no lock (human edits are not protected). */
  readonly lock?: string | false;
  /**
   * The service. Unset `url` (and no `GLOSSA_SERVER_URL`): the embedded server runs in-process with its
   * data in `dataDir` (`GLOSSA_DATA_DIR`, default under the user's cache dir). Prefer `GLOSSA_API_KEY`
   * to `apiKey`: a config file is usually committed.
   */
  readonly service?: {
    readonly url?: string;
    readonly apiKey?: string;
    readonly dataDir?: string;
    /** Requests in flight at once. Default 4. */
    readonly concurrency?: number;
  };
  /**
   * The embedded server's engines (ignored with a service `url`): per target language (`"de"`), pair
   * (`"en:ja"`) or `"default"`, the engines in order (`["openai", "deepl"]`); per provider (`"openai"`,
   * `"anthropic"`, `"deepl"`, `"google"`, `"libretranslate"`), its settings (`{ "baseUrl", "model" }`; keys
   * belong in the environment: OPENAI_API_KEY, DEEPL_AUTH_KEY…). `GLOSSA_ENGINES` overrides the order.
   * See docs/engines.md.
   */
  readonly engines?: EnginesConfig;
  /** Sent with every translation request. */
  readonly translation?: {
    readonly formality?: TranslateRequest['formality'];
    readonly modelType?: TranslateRequest['model_type'];
    readonly customInstructions?: readonly string[];
    readonly context?: string;
  };
  readonly markdown?: MarkdownConfig;
}

export interface ResolvedFiles {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly adapter?: AdapterName;
  /** Unset: detected (`auto`). */
  readonly syntax?: Exclude<CatalogSyntaxName, 'auto'>;
  /** Absolute output pattern with `{locale}` and `{path}` (and `{dir}`, `{name}`, `{ext}`). */
  readonly output: string;
}

export type ResolvedCache =
  | { readonly store: 'none' }
  | { readonly store: 'file'; readonly path: string; readonly max?: number }
  | { readonly store: 'memory'; readonly max?: number }
  | {
      readonly store: 'redis';
      readonly url: string;
      readonly prefix?: string;
      readonly ttlSeconds?: number;
      readonly max?: number;
    };

export interface ResolvedConfig {
  /** Folder paths are relative to: the config file's folder (or the working directory). */
  readonly root: string;
  readonly configFile: string | undefined;
  readonly sourceLang: string;
  /** Canonical codes; may be empty (then the CLI needs `--to`). */
  readonly targetLocales: readonly string[];
  readonly files: readonly ResolvedFiles[];
  readonly out: string;
  readonly glossaries: readonly { readonly file: string; readonly targetLocales: readonly string[] }[];
  readonly doNotTranslate: readonly string[];
  readonly memories: readonly {
    readonly file: string;
    readonly targetLocales: readonly string[];
    readonly threshold?: number;
  }[];
  readonly styleLists: readonly StyleListConfig[];
  readonly cache: ResolvedCache;
  /** Absolute path of the lock, or `undefined` when disabled. */
  readonly lock: string | undefined;
  /** `url` and `apiKey` from the environment first (`GLOSSA_SERVER_URL`, `GLOSSA_API_KEY`), then the file. */
  readonly service: {
    readonly url?: string;
    readonly apiKey?: string;
    readonly dataDir: string;
    readonly concurrency: number;
    /** The embedded server's engine order and provider settings (config `engines`, `GLOSSA_ENGINES`). */
    readonly engines?: ResolvedEngines;
  };
  readonly translation: NonNullable<GlossaConfig['translation']>;
  readonly markdown: MarkdownConfig;
}

/** Provider names whose settings the `engines` section may hold. */
export const ENGINE_PROVIDERS = ['openai', 'anthropic', 'deepl', 'google', 'libretranslate'] as const;

export type EnginesConfig = Readonly<Record<string, readonly string[] | Readonly<Record<string, unknown>>>>;

export interface ResolvedEngines {
  /** Engine names per `default`, target or `source:target`. */
  readonly order?: Readonly<Record<string, readonly string[]>>;
  /** Settings per provider, passed to the server as they are (it checks them). */
  readonly providers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}
