import { baseLanguage, DETECTION_LANGUAGES, type Language, languageName } from '@glossa/protocol';
import { hasGrammalecte } from './grammalecte.js';
import { hasHunspell } from './hunspell.js';

/** How a write target language is checked on this machine. */
export type WriteChecker = 'harper' | 'grammalecte' | 'hunspell';

export interface WriteLanguage {
  /** Canonical target code (`en-US`, `pt-BR`, `de`). */
  readonly code: string;
  readonly checker: WriteChecker;
  /** `writing_style` and `tone` are supported (the rewrite rules are English). */
  readonly styles: boolean;
}

/**
 * The write target languages this server really serves, by what is installed: English always (Harper ships
 * in npm), French with Grammalecte, German, Spanish, Italian and both Portuguese variants with Hunspell
 * and their dictionary. Japanese, Korean and Chinese have no checker here and are not offered.
 */
export function availableWriteLanguages(): WriteLanguage[] {
  const found: WriteLanguage[] = [
    { code: 'en-GB', checker: 'harper', styles: true },
    { code: 'en-US', checker: 'harper', styles: true },
  ];
  if (hasGrammalecte()) found.push({ code: 'fr', checker: 'grammalecte', styles: false });
  for (const code of ['de', 'es', 'it', 'pt-BR', 'pt-PT']) {
    if (hasHunspell(code)) found.push({ code, checker: 'hunspell', styles: false });
  }
  return found.sort((a, b) => a.code.localeCompare(b.code));
}

let cached: WriteLanguage[] | undefined;

/** `availableWriteLanguages`, computed once per process. */
export function writeLanguage(code: string): WriteLanguage | undefined {
  cached ??= availableWriteLanguages();
  return cached.find((language) => language.code === code);
}

/**
 * The language objects of `GET /v3/languages?resource=write`, from what the write endpoints accept here: the
 * languages with a checker installed (`availableWriteLanguages`), each usable as source and target;
 * `auto_detection` where language detection names the language (a text in another one is refused);
 * `writing_style` and `tone` only where the rewrites exist. For the spine's language catalog to return as is.
 */
export function writeLanguageObjects(): Language[] {
  cached ??= availableWriteLanguages();
  return cached.map((language) => {
    const features: Language['features'] = {};
    if ((DETECTION_LANGUAGES as readonly string[]).includes(baseLanguage(language.code)))
      features.auto_detection = { status: 'stable' };
    if (language.styles) {
      features.writing_style = { status: 'stable' };
      features.tone = { status: 'stable' };
    }
    return {
      lang: language.code,
      name: languageName(language.code) ?? language.code,
      usable_as_source: true,
      usable_as_target: true,
      status: 'stable',
      features,
    };
  });
}
