import { canonicalLanguage, type GlossaryEntriesResult, isPseudoLocale } from '@glossa/protocol';
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

/** 400 with the parser's `detail` (it names the line) when entries are invalid. */
export function entriesOrThrow(result: GlossaryEntriesResult) {
  if (!result.ok) throw badRequest(result.message, result.detail);
  return result.entries;
}
