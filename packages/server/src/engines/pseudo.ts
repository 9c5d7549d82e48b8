/**
 * The `pseudo` engine: deterministic pseudo-localization into the pseudo-locales `en-XA` (accented,
 * expanded, bracketed) and `ar-XB` (right-to-left), from any source language. For layout and pipeline
 * testing; inline codes come back untouched (see `pseudoLocalize` in @glossa/protocol).
 */
import { LANGUAGES, PSEUDO_LOCALES, pseudoLocalize } from '@glossa/protocol';
import type { EngineInput, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';

/** Bump when `pseudoLocalize` output changes, so caches keyed on the fingerprint are invalidated. */
const PSEUDO_VERSION = 1;

/** Source languages: every base language of the table (no regional variants, no pseudo-locales). */
const SOURCES = LANGUAGES.filter((lang) => !lang.pseudo && !lang.code.includes('-')).map((lang) => lang.code);

export function createPseudoEngine(): TranslationEngine {
  const pairs: readonly LanguagePair[] = SOURCES.flatMap((source) =>
    PSEUDO_LOCALES.map((target) => ({ source, target })),
  );
  const canonicalTarget = (target: string) =>
    PSEUDO_LOCALES.find((p) => p.toLowerCase() === target.toLowerCase());

  return {
    name: 'pseudo',
    pairs: () => pairs,
    fingerprint: (pair) => `pseudo/${PSEUDO_VERSION}/${canonicalTarget(pair.target) ?? pair.target}`,
    supportsFormality: () => false,
    async translate(input: EngineInput): Promise<string[]> {
      const target = canonicalTarget(input.target);
      if (target === undefined) {
        throw new EngineError(`pseudo engine: no pseudo-locale ${JSON.stringify(input.target)}`, 'pseudo');
      }
      input.signal?.throwIfAborted();
      return input.texts.map((text) => pseudoLocalize(text, target));
    },
    close: async () => {},
  };
}
