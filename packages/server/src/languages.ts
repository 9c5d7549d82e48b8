/**
 * What `/v3/languages` and the deprecated v2 endpoints report: computed from the engines actually
 * installed, with a feature only where this server really supports it. The spine reports text translation,
 * glossaries and style rules; each installed feature package reports the resources it serves (write, voice,
 * documents).
 */
import {
  baseLanguage,
  canonicalLanguage,
  isPseudoLocale,
  type Language,
  languageName,
  RESOURCES,
  type ResourceName,
} from '@glossa/protocol';
import type { EngineRegistry } from './engines/registry.js';
import { customizationFeatures, customizationLanguages } from './glossaries/languages.js';
import { DETECTABLE_LANGUAGES } from './translate/detect-source.js';

export interface LanguageCatalog {
  /** The languages of a resource; `beta` adds beta languages and features. */
  languages(resource: ResourceName, includeBeta: boolean): Language[];
  /** Whether some engine honours `formality` for this target. */
  supportsFormality(target: string): boolean;
  /** The resources this server serves: the spine's and those of its installed features. */
  readonly resources: readonly ResourceName[];
}

const SPINE_RESOURCES: readonly ResourceName[] = ['translate_text', 'glossary', 'style_rules'];

const byCode = (a: { lang: string }, b: { lang: string }) => a.lang.localeCompare(b.lang);

/** What a feature's languages are computed from: the installed engines and the text translation languages. */
export interface LanguageInput {
  readonly engines: EngineRegistry;
  /** `/v3/languages?resource=translate_text` (a copy the caller may change). */
  translateText(): Language[];
}

/** The languages of the resources that feature packages add, by resource. */
export type FeatureResources = { readonly [R in ResourceName]?: (input: LanguageInput) => Language[] };

export function createLanguageCatalog(
  engines: EngineRegistry,
  features: readonly { readonly resources?: FeatureResources }[] = [],
): LanguageCatalog {
  const sources = new Set<string>();
  const targets = new Set<string>();
  // A source counts only if it reaches a real (non-pseudo) target: the pseudo engine accepts every source,
  // which would list Japanese as a source with nothing but pseudo-locales to go to. When only pseudo
  // targets are offered, every source they accept is listed (see docs/engines.md).
  const real = engines.choices.filter(({ pair }) => !isPseudoLocale(pair.target));
  for (const { pair } of real.length > 0 ? real : engines.choices) {
    sources.add(canonicalLanguage(baseLanguage(pair.source)) ?? baseLanguage(pair.source));
  }
  for (const { pair } of engines.choices) targets.add(canonicalLanguage(pair.target) ?? pair.target);
  const formality = (target: string) =>
    engines.engines.some(
      (engine) => engine.pairs().some((pair) => pair.target === target) && engine.supportsFormality(target),
    );

  const translateText = (): Language[] =>
    [...new Set([...sources, ...targets])]
      .map((code): Language => {
        const features: Language['features'] = {};
        const isSource = sources.has(code);
        const isTarget = targets.has(code);
        if (isSource && DETECTABLE_LANGUAGES.has(code)) features.auto_detection = { status: 'stable' };
        // Every engine keeps inline markup (the pipeline maps tags to codes), so every pair has tag handling.
        features.tag_handling = { status: 'stable' };
        if (isTarget && formality(code)) features.formality = { status: 'stable' };
        Object.assign(features, customizationFeatures(code, isTarget));
        return {
          lang: code,
          name: languageName(code) ?? code,
          usable_as_source: isSource,
          usable_as_target: isTarget,
          status: 'stable',
          features,
        };
      })
      .sort(byCode);

  let cached: Language[] | undefined;
  const textLanguages = () => {
    cached ??= translateText();
    return cached;
  };
  return {
    languages(resource) {
      for (const feature of features) {
        const list = feature.resources?.[resource];
        if (list) return list({ engines, translateText: () => structuredClone(textLanguages()) });
      }
      if (resource === 'glossary' || resource === 'style_rules') return customizationLanguages(resource);
      if (resource !== 'translate_text') return [];
      return structuredClone(textLanguages());
    },
    supportsFormality: formality,
    resources: RESOURCES.filter(
      (resource) =>
        SPINE_RESOURCES.includes(resource) || features.some((feature) => feature.resources?.[resource]),
    ),
  };
}
