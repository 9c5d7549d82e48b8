/** Glossaries, memories and style lists of the config, synced to the service, as request options per locale. */
import type { GlossaClient } from '@glossa/client';
import {
  type ResolvedConfig,
  readGlossaryFile,
  type SyncedGlossary,
  syncGlossary,
  syncMemory,
  syncStyleList,
  type TranslationRunOptions,
} from '@glossa/core';
import { baseLanguage, isPseudoLocale } from '@glossa/protocol';

export interface LocaleResources {
  readonly requestOptions: NonNullable<TranslationRunOptions['requestOptions']>;
  readonly cacheKeyParts: NonNullable<TranslationRunOptions['cacheKeyParts']>;
}

export interface SyncSummary {
  readonly perLocale: Map<string, LocaleResources>;
  /** One line per resource: what it is, its id, and whether it was created now. */
  readonly lines: string[];
}

/**
 * The glossary a locale is translated with. Pseudo-locales (en-XA, ar-XB) and variants of the source
 * language have none: nothing is translated into another language there, and a glossary needs two.
 */
function glossaryFor(config: ResolvedConfig, locale: string) {
  if (isPseudoLocale(locale) || baseLanguage(locale) === baseLanguage(config.sourceLang)) return undefined;
  return config.glossaries.find((g) => g.targetLocales.includes(locale));
}

export async function syncResources(
  client: GlossaClient,
  config: ResolvedConfig,
  locales: readonly string[],
): Promise<SyncSummary> {
  const lines: string[] = [];
  const translation = config.translation;
  const base = {
    ...(translation.formality !== undefined && { formality: translation.formality }),
    ...(translation.modelType !== undefined && { modelType: translation.modelType }),
    ...(translation.customInstructions !== undefined && {
      customInstructions: [...translation.customInstructions],
    }),
  };
  const perLocale = new Map<string, LocaleResources>();
  for (const locale of locales) {
    let requestOptions: LocaleResources['requestOptions'] = { ...base };
    let cacheKeyParts: LocaleResources['cacheKeyParts'] = {};
    const glossary = glossaryFor(config, locale);
    if (glossary) {
      const synced: SyncedGlossary = await syncGlossary(client, {
        file: glossary.file,
        sourceLang: config.sourceLang,
        targetLang: baseLanguage(locale),
      });
      lines.push(`glossary ${synced.name} → ${synced.glossaryId}${synced.created ? ' (created)' : ''}`);
      requestOptions = { ...requestOptions, glossaryId: synced.glossaryId };
      cacheKeyParts = { ...cacheKeyParts, glossaryHash: synced.hash };
    }
    const memory = config.memories.find((m) => m.targetLocales.includes(locale));
    if (memory) {
      const synced = await syncMemory(client, { file: memory.file });
      lines.push(
        `memory ${synced.name} → ${synced.translationMemoryId}${synced.created ? ' (created)' : ''}`,
      );
      requestOptions = {
        ...requestOptions,
        translationMemoryId: synced.translationMemoryId,
        ...(memory.threshold !== undefined && { translationMemoryThreshold: memory.threshold }),
      };
      cacheKeyParts = { ...cacheKeyParts, memory: { id: synced.translationMemoryId, version: synced.hash } };
    }
    const style = config.styleLists.find((s) => baseLanguage(s.language) === baseLanguage(locale));
    if (style) {
      const synced = await syncStyleList(client, style);
      lines.push(`style list ${synced.name} → ${synced.styleId}${synced.created ? ' (created)' : ''}`);
      requestOptions = { ...requestOptions, styleId: synced.styleId };
      cacheKeyParts = { ...cacheKeyParts, styleList: { id: synced.styleId, version: synced.version } };
    }
    perLocale.set(locale, { requestOptions, cacheKeyParts });
  }
  return { perLocale, lines: [...new Set(lines)] };
}

/**
 * What `estimate` can know without the service: the request options and the glossary content hash per
 * locale (so cache hits of glossary runs are counted). Memories and style lists are identified by ids
 * only the service knows; `unknown` says whether any locale uses one.
 */
export async function localResources(config: ResolvedConfig, locales: readonly string[]) {
  const perLocale = new Map<string, LocaleResources>();
  let unknown = false;
  for (const locale of locales) {
    const glossary = glossaryFor(config, locale);
    const hash = glossary
      ? (
          await readGlossaryFile(glossary.file, {
            sourceLang: config.sourceLang,
            targetLang: baseLanguage(locale),
          })
        ).hash
      : undefined;
    const t = config.translation;
    perLocale.set(locale, {
      requestOptions: {
        ...(t.formality !== undefined && { formality: t.formality }),
        ...(t.modelType !== undefined && { modelType: t.modelType }),
        ...(t.customInstructions !== undefined && { customInstructions: [...t.customInstructions] }),
      },
      cacheKeyParts: hash === undefined ? {} : { glossaryHash: hash },
    });
    unknown ||=
      config.memories.some((m) => m.targetLocales.includes(locale)) ||
      config.styleLists.some((s) => baseLanguage(s.language) === baseLanguage(locale));
  }
  return { perLocale, unknown };
}
