import {
  baseLanguage,
  canonicalLanguage,
  type EntriesFormat,
  isPseudoLocale,
  LANGUAGES,
  type Language,
  languageName,
  parseGlossaryEntries,
  STYLE_RULE_LANGUAGES,
} from '@glossa/protocol';
import { badRequest, unsupportedLanguage } from '../errors.js';

/**
 * A dictionary's language: a root language known to the interface, lower case (`EN` → `en`). A dictionary
 * in a root language serves its variants (`en` serves EN-US and EN-GB, `pt` PT-BR and PT-PT, `zh`
 * ZH-HANS and ZH-HANT), so a variant code is refused with a message saying so.
 */
export function glossaryLanguage(code: string, parameter: string): string {
  const canonical = canonicalLanguage(code);
  if (!canonical || isPseudoLocale(canonical)) {
    throw unsupportedLanguage(`Value for '${parameter}' not supported for glossaries: '${code}'.`);
  }
  if (canonical.includes('-')) {
    const root = canonical.split('-')[0]!.toLowerCase();
    throw unsupportedLanguage(
      `Glossaries use root languages: send '${root}' instead of '${code}' (a '${root}' dictionary serves every variant of it).`,
    );
  }
  return canonical.toLowerCase();
}

export function glossaryPair(source: string, target: string): { source: string; target: string } {
  const pair = {
    source: glossaryLanguage(source, 'source_lang'),
    target: glossaryLanguage(target, 'target_lang'),
  };
  if (pair.source === pair.target) {
    throw badRequest(`A glossary dictionary needs two different languages, got '${source}' and '${target}'.`);
  }
  return pair;
}

/** The entries, or a 400 whose `detail` names the line (the protocol's parser). */
export function parseEntries(text: string, format: EntriesFormat, pair: { source: string; target: string }) {
  const result = parseGlossaryEntries(text, format, { source_lang: pair.source, target_lang: pair.target });
  if (!result.ok) throw badRequest(result.message, result.detail);
  return result.entries;
}

/**
 * Features a translate_text language gets from glossaries and style rules: `glossary` for every human
 * language (glossaries apply with every engine), `style_rules` for targets whose root has style rules.
 */
export function customizationFeatures(code: string, isTarget: boolean): Language['features'] {
  const features: Language['features'] = {};
  if (isPseudoLocale(code)) return features;
  features.glossary = { status: 'stable' };
  if (isTarget && (STYLE_RULE_LANGUAGES as readonly string[]).includes(baseLanguage(code))) {
    features.style_rules = { status: 'stable' };
  }
  return features;
}

/**
 * `/v3/languages?resource=glossary` and `resource=style_rules`: the languages these resources really
 * accept, whatever the installed engines translate. A glossary dictionary takes any root language of the
 * interface on either side (`glossaryLanguage`), and applies with any engine that serves the pair (a de → en
 * dictionary works through an upstream engine); a style list takes any style rule language (`de`, `ja`, …).
 */
export function customizationLanguages(resource: 'glossary' | 'style_rules'): Language[] {
  const codes =
    resource === 'glossary'
      ? LANGUAGES.filter((language) => !language.pseudo && !language.code.includes('-')).map(
          (language) => language.code,
        )
      : [...STYLE_RULE_LANGUAGES];
  return [...new Set(codes)].sort().map((code) => ({
    lang: code,
    name: languageName(code) ?? code,
    usable_as_source: resource === 'glossary',
    usable_as_target: true,
    status: 'stable',
    features: {},
  }));
}
