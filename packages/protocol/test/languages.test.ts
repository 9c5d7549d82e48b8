import { describe, expect, it } from 'vitest';
import {
  baseLanguage,
  canonicalLanguage,
  DETECTION_LANGUAGES,
  describeResources,
  FEATURES,
  isPseudoLocale,
  isRightToLeft,
  LANGUAGES,
  languageName,
  PSEUDO_LOCALES,
  pairSupportsFeature,
  RESOURCES,
  toV2LanguageCode,
} from '../src/index.js';

describe('language codes', () => {
  it('finds the canonical form case-insensitively', () => {
    expect(canonicalLanguage('EN-us')).toBe('en-US');
    expect(canonicalLanguage(' zh-hans ')).toBe('zh-Hans');
    expect(canonicalLanguage('DE')).toBe('de');
    expect(canonicalLanguage('en-xa')).toBe('en-XA');
    expect(canonicalLanguage('xx')).toBeUndefined();
  });

  it('writes v2 codes in upper case and finds base languages', () => {
    expect(toV2LanguageCode('en-US')).toBe('EN-US');
    expect(toV2LanguageCode('zh-Hans')).toBe('ZH-HANS');
    expect(baseLanguage('pt-BR')).toBe('pt');
    expect(baseLanguage('DE')).toBe('de');
  });

  it('knows the pseudo-locales and right-to-left languages', () => {
    expect(PSEUDO_LOCALES).toEqual(['en-XA', 'ar-XB']);
    expect(isPseudoLocale('en-XA')).toBe(true);
    expect(isPseudoLocale('en')).toBe(false);
    expect(isRightToLeft('ar-XB')).toBe(true);
    expect(isRightToLeft('HE')).toBe(true);
    expect(isRightToLeft('en-XA')).toBe(false);
    expect(languageName('pt-br')).toBe('Portuguese (Brazilian)');
  });

  it('lists the 33 detection codes, each a known language', () => {
    expect(DETECTION_LANGUAGES).toHaveLength(33);
    expect(new Set(DETECTION_LANGUAGES).size).toBe(33);
    for (const code of DETECTION_LANGUAGES) expect(canonicalLanguage(code), code).toBe(code);
  });

  it('has unique canonical codes', () => {
    const codes = LANGUAGES.map((language) => language.code.toLowerCase());
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('resources and features', () => {
  it('describes every resource with the features that appear on it and the sides they need', () => {
    const resources = describeResources();
    expect(resources.map((resource) => resource.name)).toEqual([...RESOURCES]);
    const write = resources.find((resource) => resource.name === 'write')!;
    expect(write.features).toEqual([
      { name: 'auto_detection', needs_source_support: true },
      { name: 'tone', needs_target_support: true },
      { name: 'writing_style', needs_target_support: true },
    ]);
    expect(resources.find((resource) => resource.name === 'glossary')!.features).toEqual([]);
    const glossary = resources[0]!.features.find((feature) => feature.name === 'glossary');
    expect(glossary).toEqual({ name: 'glossary', needs_source_support: true, needs_target_support: true });
  });

  it('finds a feature available only when every side it needs lists it', () => {
    const withGlossary = { features: { glossary: { status: 'stable' as const } } };
    const without = { features: {} };
    expect(pairSupportsFeature('glossary', withGlossary, withGlossary)).toBe(true);
    expect(pairSupportsFeature('glossary', withGlossary, without)).toBe(false);
    expect(pairSupportsFeature('glossary', undefined, withGlossary)).toBe(false);
    const formal = { features: { formality: { status: 'beta' as const } } };
    expect(pairSupportsFeature('formality', undefined, formal)).toBe(true);
    expect(pairSupportsFeature('formality', formal, without)).toBe(false);
  });

  it('names each feature on at least one resource of the resource list', () => {
    for (const [name, feature] of Object.entries(FEATURES)) {
      expect(feature.resources.length, name).toBeGreaterThan(0);
      for (const resource of feature.resources) expect(RESOURCES).toContain(resource);
    }
  });
});
