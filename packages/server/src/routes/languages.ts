import {
  ENDPOINTS,
  ENGINE_FINGERPRINTS_HEADER,
  formatEngineFingerprints,
  resourceFeatures,
  toV2LanguageCode,
} from '@glossa/protocol';
import { defineRoute } from '../http/route.js';

/** GET /v3/languages?resource=&include=: from the installed engines (see `languages.ts`). */
export const languagesRoute = defineRoute(ENDPOINTS.getLanguages, async ({ query, context, reply }) => {
  reply.header(ENGINE_FINGERPRINTS_HEADER, formatEngineFingerprints(context.engines.fingerprints()));
  const include = query.include === undefined ? [] : [query.include].flat();
  return context.languages.languages(query.resource, include.includes('beta'));
});

/** GET /v3/languages/resources: every resource this server serves (spine and installed features), with its features. */
export const resourcesRoute = defineRoute(ENDPOINTS.getLanguageResources, async ({ context }) =>
  context.languages.resources.map((name) => ({ name, features: resourceFeatures(name) })),
);

/** Targets the public protocol deprecated in favour of their variants (its clients refuse them as targets). */
const DEPRECATED_V2_TARGETS = new Set(['en', 'pt']);

/**
 * GET /v2/languages?type=source|target (deprecated): upper-case codes; targets say whether formality works.
 * Targets list `EN-GB`/`EN-US` and `PT-BR`/`PT-PT`, not the bare `EN` and `PT` (as the public service does).
 */
export const languagesV2Route = defineRoute(ENDPOINTS.getLanguagesV2, async ({ query, context, reply }) => {
  const target = query.type === 'target';
  // Glossa's own header: the engines per target, for clients' cache keys (protocol engine-fingerprints.ts).
  if (target)
    reply.header(ENGINE_FINGERPRINTS_HEADER, formatEngineFingerprints(context.engines.fingerprints()));
  const languages = context.languages.languages('translate_text', false);
  const hasVariant = (code: string) => languages.some((other) => other.lang.startsWith(`${code}-`));
  return languages
    .filter((language) => (target ? language.usable_as_target : language.usable_as_source))
    .filter((language) => !(target && DEPRECATED_V2_TARGETS.has(language.lang) && hasVariant(language.lang)))
    .map((language) => ({
      language: toV2LanguageCode(language.lang),
      name: language.name,
      ...(target ? { supports_formality: 'formality' in language.features } : {}),
    }));
});

/** GET /v2/glossary-language-pairs (deprecated): the pairs glossaries support on this server. */
export const glossaryPairsRoute = defineRoute(ENDPOINTS.getGlossaryLanguagePairs, async ({ context }) => {
  const glossary = context.languages.languages('glossary', false);
  const supported_languages = glossary
    .filter((source) => source.usable_as_source)
    .flatMap((source) =>
      glossary
        .filter((target) => target.usable_as_target && target.lang !== source.lang)
        .map((target) => ({ source_lang: source.lang, target_lang: target.lang })),
    );
  return { supported_languages };
});
