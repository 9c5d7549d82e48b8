import { type Static, Type } from '@sinclair/typebox';
import {
  AVAILABILITY_STATUSES,
  FEATURES,
  type FeatureName,
  RESOURCES,
  type ResourceName,
} from './features.js';

const literals = <const T extends readonly string[]>(values: T) =>
  values.map((value) => Type.Literal(value as T[number]));

/** `include` values of `GET /v3/languages`: `beta` adds beta languages and features, `external` third-party ones. */
export const LANGUAGE_INCLUDES = ['beta', 'external'] as const;
export type LanguageInclude = (typeof LANGUAGE_INCLUDES)[number];

export const ResourceValue = Type.Union(literals(RESOURCES), { description: 'resource value' });
/** Availability of a language or a feature: `stable`, `beta`, `early_access`. */
export const AvailabilityStatus = Type.Union(literals(AVAILABILITY_STATUSES));
export type AvailabilityStatus = Static<typeof AvailabilityStatus>;
const IncludeValue = Type.Union(literals(LANGUAGE_INCLUDES));

/** GET /v3/languages query: `resource` required; `include` repeatable (`?include=beta&include=external`). */
export const LanguagesQuery = Type.Object(
  {
    resource: ResourceValue,
    include: Type.Optional(Type.Union([IncludeValue, Type.Array(IncludeValue)])),
  },
  { $id: 'LanguagesQuery', additionalProperties: false },
);
export type LanguagesQuery = Static<typeof LanguagesQuery>;

/** A feature of a language: at least `status`; new fields may appear (forward compatible). */
export const LanguageFeature = Type.Object({ status: AvailabilityStatus }, { additionalProperties: true });

/** The language object of `GET /v3/languages`. A feature is supported when its key exists. */
export const Language = Type.Object(
  {
    lang: Type.String({ description: 'BCP 47 code: en, en-US, zh-Hans' }),
    name: Type.String(),
    usable_as_source: Type.Boolean(),
    usable_as_target: Type.Boolean(),
    status: AvailabilityStatus,
    features: Type.Record(Type.String(), LanguageFeature),
  },
  { $id: 'Language' },
);
export type Language = Static<typeof Language>;

export const LanguagesResponse = Type.Array(Language, { $id: 'LanguagesResponse' });
export type LanguagesResponse = Static<typeof LanguagesResponse>;

/** A feature as the resources endpoint lists it; a flag is absent when that side is not needed. */
export const ResourceFeature = Type.Object({
  name: Type.String(),
  needs_source_support: Type.Optional(Type.Boolean()),
  needs_target_support: Type.Optional(Type.Boolean()),
});
export type ResourceFeature = Static<typeof ResourceFeature>;

export const Resource = Type.Object(
  { name: Type.String(), features: Type.Array(ResourceFeature) },
  { $id: 'Resource' },
);
export type Resource = Static<typeof Resource>;

export const ResourcesResponse = Type.Array(Resource, { $id: 'ResourcesResponse' });
export type ResourcesResponse = Static<typeof ResourcesResponse>;

/** The body of `GET /v3/languages/resources`, built from the feature table. */
export function describeResources(): Resource[] {
  return RESOURCES.map((name) => ({ name, features: resourceFeatures(name) }));
}

/** The features that appear on one resource, with the sides each needs. */
export function resourceFeatures(resource: ResourceName): ResourceFeature[] {
  const features: ResourceFeature[] = [];
  for (const [name, feature] of Object.entries(FEATURES)) {
    if (!(feature.resources as readonly string[]).includes(resource)) continue;
    features.push({
      name,
      ...(feature.needsSource ? { needs_source_support: true } : {}),
      ...(feature.needsTarget ? { needs_target_support: true } : {}),
    });
  }
  return features;
}

/**
 * Whether `feature` is available for a pair: every side it needs lists the feature key.
 * Pass `undefined` for a side the request does not name (auto-detected source).
 */
export function pairSupportsFeature(
  feature: FeatureName,
  source: Pick<Language, 'features'> | undefined,
  target: Pick<Language, 'features'> | undefined,
): boolean {
  const definition = FEATURES[feature];
  if (definition.needsSource && !(source && feature in source.features)) return false;
  if (definition.needsTarget && !(target && feature in target.features)) return false;
  return true;
}

/** GET /v2/languages (deprecated) query: `type=source` (default) or `type=target`. */
export const V2_LANGUAGE_TYPES = ['source', 'target'] as const;
export const LanguagesV2Query = Type.Object(
  { type: Type.Optional(Type.Union(literals(V2_LANGUAGE_TYPES))) },
  { $id: 'LanguagesV2Query', additionalProperties: false },
);
export type LanguagesV2Query = Static<typeof LanguagesV2Query>;

/** An entry of `GET /v2/languages`: upper-case `language`; targets carry `supports_formality`. */
export const LanguageV2 = Type.Object({
  language: Type.String({ description: 'upper-case code: DE, EN-US' }),
  name: Type.String(),
  supports_formality: Type.Optional(Type.Boolean()),
});
export type LanguageV2 = Static<typeof LanguageV2>;

export const LanguagesV2Response = Type.Array(LanguageV2, { $id: 'LanguagesV2Response' });
export type LanguagesV2Response = Static<typeof LanguagesV2Response>;

/** GET /v2/glossary-language-pairs (deprecated). */
export const GlossaryLanguagePairsResponse = Type.Object(
  {
    supported_languages: Type.Array(Type.Object({ source_lang: Type.String(), target_lang: Type.String() })),
  },
  { $id: 'GlossaryLanguagePairsResponse' },
);
export type GlossaryLanguagePairsResponse = Static<typeof GlossaryLanguagePairsResponse>;
