import type { LanguagePair } from './engines/engine.js';

/**
 * Lookups the translate endpoint needs for resources an account owns (glossaries, translation memories,
 * style rule lists). Every lookup is scoped to the account: another account's id is "not found".
 * The resource endpoints (a later issue) store these and implement this interface over their storage.
 */
export interface ResourceStore {
  /** The glossary's dictionaries (language pairs, canonical base codes), or undefined. */
  glossary(
    accountId: string,
    id: string,
  ): Promise<{ readonly dictionaries: readonly LanguagePair[] } | undefined>;
  /** The translation memory's languages, or undefined. */
  translationMemory(
    accountId: string,
    id: string,
  ): Promise<{ readonly source: string; readonly targets: readonly string[] } | undefined>;
  /** The style rule list's root language, or undefined. */
  styleList(accountId: string, id: string): Promise<{ readonly language: string } | undefined>;
}

/** The store of a server with no resource storage yet: no account owns any glossary, memory or list. */
export const NO_RESOURCES: ResourceStore = {
  glossary: async () => undefined,
  translationMemory: async () => undefined,
  styleList: async () => undefined,
};
