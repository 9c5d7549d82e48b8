import { baseLanguage } from '@glossa/protocol';
import type { LanguagePair, TranslationEngine } from './engine.js';

export interface EngineChoice {
  readonly engine: TranslationEngine;
  /** The pair as the engine names it (its codes), to pass to `translate` and `fingerprint`. */
  readonly pair: LanguagePair;
}

/** The installed engines and which one serves each language pair (first in priority order wins). */
export interface EngineRegistry {
  readonly engines: readonly TranslationEngine[];
  /** Every pair some engine serves, with the engine chosen for it. */
  readonly choices: readonly EngineChoice[];
  /**
   * The engine for `source` → `target` (canonical codes). The target matches exactly or by base language
   * (`en-US` is served by an `en` engine); the source by base language.
   */
  select(source: string, target: string): EngineChoice | undefined;
  /** Base source languages some engine can translate into `target`. */
  sourcesFor(target: string): ReadonlySet<string>;
  close(): Promise<void>;
}

const pairKey = (source: string, target: string) => `${source.toLowerCase()}>${target.toLowerCase()}`;

export function createEngineRegistry(engines: readonly TranslationEngine[]): EngineRegistry {
  const byPair = new Map<string, EngineChoice>();
  for (const engine of engines) {
    for (const pair of engine.pairs()) {
      const key = pairKey(pair.source, pair.target);
      if (!byPair.has(key)) byPair.set(key, { engine, pair });
    }
  }
  const sourceSets = new Map<string, ReadonlySet<string>>();
  const select = (source: string, target: string) => {
    const from = baseLanguage(source);
    return byPair.get(pairKey(from, target)) ?? byPair.get(pairKey(from, baseLanguage(target)));
  };
  return {
    engines,
    choices: [...byPair.values()],
    select,
    sourcesFor(target) {
      let set = sourceSets.get(target);
      if (!set) {
        const sources = new Set(
          engines.flatMap((engine) => engine.pairs().map((pair) => baseLanguage(pair.source))),
        );
        set = new Set([...sources].filter((source) => select(source, target) !== undefined));
        sourceSets.set(target, set);
      }
      return set;
    },
    async close() {
      await Promise.allSettled(engines.map((engine) => engine.close()));
    },
  };
}
