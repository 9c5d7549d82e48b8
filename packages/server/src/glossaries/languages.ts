import {
  canonicalLanguage,
  type EntriesFormat,
  isPseudoLocale,
  parseGlossaryEntries,
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

/** Control characters (tab and line breaks aside) and U+2028/2029, anywhere on a line. */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/u;

/**
 * The entries, or a 400 whose `detail` names the line. Forbidden characters are looked for before the
 * parser trims the terms, so that one at the end of a term (U+2028 and U+2029 count as white space) is
 * refused rather than silently dropped.
 */
export function parseEntries(text: string, format: EntriesFormat, pair: { source: string; target: string }) {
  const lines = text.split(/\r?\n/);
  const line = lines.findIndex((content) => FORBIDDEN.test(content));
  if (line >= 0) {
    throw badRequest(
      'Invalid glossary entries.',
      `Line ${line + 1}: a term contains a control or separator character.`,
    );
  }
  const result = parseGlossaryEntries(text, format, { source_lang: pair.source, target_lang: pair.target });
  if (!result.ok) throw badRequest(result.message, result.detail);
  return result.entries;
}
