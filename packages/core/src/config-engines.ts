/**
 * Which engines the embedded server uses for a locale, and their fingerprint for the cache key: what the
 * output depends on (engines in order, provider host, model, batch budget), never a key or a setting that
 * only changes speed or price.
 */
import { baseLanguage, isPseudoLocale } from '@glossa/protocol';
import type { ResolvedEngines } from './config-types.js';

/** The embedded server's order when the config names none. */
export const DEFAULT_ENGINES: readonly string[] = ['pseudo', 'apertium'];

/**
 * The engines listed for `sourceLang` → `locale`, as the server picks the list: the pair, the pair with the
 * target's base language, the target, its base language, then `default` (else pseudo, apertium).
 */
export function enginesFor(
  engines: ResolvedEngines | undefined,
  sourceLang: string,
  locale: string,
): readonly string[] {
  const order = new Map(
    Object.entries(engines?.order ?? {}).map(([key, names]) => [key.toLowerCase(), names] as const),
  );
  const source = baseLanguage(sourceLang).toLowerCase();
  const target = locale.toLowerCase();
  const base = baseLanguage(locale).toLowerCase();
  return (
    order.get(`${source}:${target}`) ??
    order.get(`${source}:${base}`) ??
    order.get(target) ??
    order.get(base) ??
    order.get('default') ??
    DEFAULT_ENGINES
  );
}

/**
 * The settings of each provider that change what it answers, and the environment variable the server reads
 * when the config leaves one out. Keys (`apiKey`, `authKey`), headers, concurrency, timeouts, retries and
 * prices are not among them.
 */
const OUTPUT_SETTINGS: Readonly<Record<string, Readonly<Record<string, string | undefined>>>> = {
  openai: {
    baseUrl: 'OPENAI_BASE_URL',
    model: 'GLOSSA_OPENAI_MODEL',
    responseFormat: undefined,
    contextTokens: 'GLOSSA_OPENAI_CONTEXT_TOKENS',
    maxOutputTokens: undefined,
  },
  anthropic: {
    baseUrl: 'ANTHROPIC_BASE_URL',
    model: 'GLOSSA_ANTHROPIC_MODEL',
    contextTokens: undefined,
    maxOutputTokens: undefined,
  },
  deepl: { serverUrl: 'DEEPL_SERVER_URL' },
  google: {
    baseUrl: 'GLOSSA_GOOGLE_BASE_URL',
    projectId: 'GOOGLE_CLOUD_PROJECT',
    location: 'GLOSSA_GOOGLE_LOCATION',
  },
  libretranslate: { url: 'LIBRETRANSLATE_URL' },
};

/**
 * The embedded server's engine fingerprint for `locale` (the cache key's `engineFingerprint`): the engines
 * that can serve it in order, each with its output settings from the config or the environment. A model,
 * host or order change changes it, so the persistent cache stops answering with the old engine's output;
 * a key change does not. `undefined` where the server's default serves the locale (Apertium; pseudo for
 * the pseudo-locales), so caches written before engines could be configured stay valid.
 */
export function engineFingerprint(
  engines: ResolvedEngines | undefined,
  sourceLang: string,
  locale: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  // Only `pseudo` serves a pseudo-locale; `pseudo` serves nothing else; `upstream` does not run embedded.
  if (isPseudoLocale(locale)) return undefined;
  const names = enginesFor(engines, sourceLang, locale).filter(
    (name) => name !== 'pseudo' && name !== 'upstream',
  );
  if (names.length === 1 && names[0] === 'apertium') return undefined;
  const parts = names.map((name) => {
    const fields = OUTPUT_SETTINGS[name];
    if (!fields) return name;
    const given = engines?.providers?.[name] ?? {};
    const settings: Record<string, unknown> = {};
    for (const [field, variable] of Object.entries(fields)) {
      const value = given[field] ?? (variable !== undefined && env[variable] ? env[variable] : undefined);
      if (value !== undefined) settings[field] = value;
    }
    return Object.keys(settings).length === 0 ? name : [name, settings];
  });
  return `engines:${JSON.stringify(parts)}`;
}
