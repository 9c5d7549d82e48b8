import { createHash } from 'node:crypto';
import { baseLanguage } from '@glossa/protocol';
import { type ChainOptions, createEngineChain } from './chain.js';
import type { LanguagePair, TranslationEngine } from './engine.js';

export interface EngineChoice {
  readonly engine: TranslationEngine;
  /** The pair as the engine names it (its codes), to pass to `translate` and `fingerprint`. */
  readonly pair: LanguagePair;
}

/**
 * Which engines serve which pairs, in order: `default` for every pair, a target language (`de`, `pt-BR`)
 * or a pair (`en:de`) for its own list. The most specific entry wins: the pair, the exact target, the
 * target's base language, then `default`.
 */
export interface EngineOrder {
  readonly default: readonly string[];
  readonly [targetOrPair: string]: readonly string[];
}

/** The installed engines and which one serves each language pair (first in priority order wins). */
export interface EngineRegistry {
  readonly engines: readonly TranslationEngine[];
  /** Every pair some engine serves, with the engine chosen for it. */
  readonly choices: readonly EngineChoice[];
  /**
   * The engine for `source` → `target` (canonical codes). The target matches exactly or by base language
   * (`en-US` is served by an `en` engine); the source by base language. Where the order lists several
   * engines for the pair and one of them is checked (`verification`), the choice is their chain
   * (`chain.ts`): verified outputs, retries, fallback to the next engine, the source kept last.
   */
  select(source: string, target: string): EngineChoice | undefined;
  /** Base source languages some engine can translate into `target`. */
  sourcesFor(target: string): ReadonlySet<string>;
  /**
   * Per target some engine serves (its code as the engines name it), a 16-hex hash of which engine
   * translates each source into it and its fingerprint (provider, host, model, prompt version): what a
   * client keys its cache with (`ENGINE_FINGERPRINTS_HEADER`). Computed once.
   */
  fingerprints(): ReadonlyMap<string, string>;
  close(): Promise<void>;
}

const pairKey = (source: string, target: string) => `${source.toLowerCase()}>${target.toLowerCase()}`;

/**
 * @param order engine names per target or pair; default: the engines in the given order, for every pair.
 */
export function createEngineRegistry(
  engines: readonly TranslationEngine[],
  order?: EngineOrder,
  chainOptions: ChainOptions = {},
): EngineRegistry {
  // An engine the order names but that is not running (`upstream` without a URL) serves nothing.
  const byName = new Map(engines.map((engine) => [engine.name, engine]));
  /** Per engine, its pairs by key. */
  const pairsOf = new Map(
    engines.map((engine) => {
      const map = new Map<string, LanguagePair>();
      for (const pair of engine.pairs()) {
        const key = pairKey(pair.source, pair.target);
        if (!map.has(key)) map.set(key, pair);
      }
      return [engine, map] as const;
    }),
  );
  const lowerOrder = new Map(
    Object.entries(order ?? {}).map(([key, names]) => [key.toLowerCase(), names] as const),
  );
  const namesFor = (source: string, target: string): readonly string[] => {
    if (!order) return engines.map((engine) => engine.name);
    return (
      lowerOrder.get(`${source}:${target}`.toLowerCase()) ??
      lowerOrder.get(`${source}:${baseLanguage(target)}`.toLowerCase()) ??
      lowerOrder.get(target.toLowerCase()) ??
      lowerOrder.get(baseLanguage(target).toLowerCase()) ??
      order.default
    );
  };
  const memo = new Map<string, EngineChoice | null>();
  const build = (from: string, target: string): EngineChoice | undefined => {
    const members: EngineChoice[] = [];
    const names = namesFor(from, target);
    // Engines serving the exact target first (`pt-BR`), then those serving its base language (`pt`).
    for (const key of [pairKey(from, target), pairKey(from, baseLanguage(target))]) {
      for (const name of names) {
        const engine = byName.get(name);
        const pair = engine && pairsOf.get(engine)!.get(key);
        if (engine && pair && !members.some((member) => member.engine === engine))
          members.push({ engine, pair });
      }
    }
    if (members.length === 0) return undefined;
    // Unchecked local engines that cannot tell an untranslated text (pseudo, upstream) serve the pair alone.
    if (!members.some((member) => member.engine.verification || member.engine.unknownWords))
      return members[0];
    const chain = createEngineChain(members, chainOptions);
    return { engine: chain, pair: { source: from, target: members[0]!.pair.target } };
  };
  const select = (source: string, target: string) => {
    const from = baseLanguage(source);
    const key = pairKey(from, target);
    let choice = memo.get(key);
    if (choice === undefined) {
      choice = build(from, target) ?? null;
      memo.set(key, choice);
    }
    return choice ?? undefined;
  };
  // Every pair some engine serves, chosen as `select` would.
  const seen = new Set<string>();
  const choices: EngineChoice[] = [];
  for (const engine of engines) {
    for (const pair of engine.pairs()) {
      const key = pairKey(pair.source, pair.target);
      if (seen.has(key)) continue;
      seen.add(key);
      const choice = select(pair.source, pair.target);
      if (choice) choices.push(choice);
    }
  }
  const sourceSets = new Map<string, ReadonlySet<string>>();
  let fingerprints: Map<string, string> | undefined;
  return {
    engines,
    choices,
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
    fingerprints() {
      if (fingerprints) return fingerprints;
      const parts = new Map<string, string[]>();
      for (const engine of engines) {
        for (const pair of engine.pairs()) {
          const choice = select(pair.source, pair.target);
          if (!choice) continue;
          const list = parts.get(pair.target) ?? [];
          list.push(
            `${baseLanguage(pair.source)}>${choice.engine.name}:${choice.engine.fingerprint(choice.pair)}`,
          );
          parts.set(pair.target, list);
        }
      }
      fingerprints = new Map(
        [...parts].map(([target, list]) => [
          target,
          createHash('sha256')
            .update(JSON.stringify([...new Set(list)].sort()))
            .digest('hex')
            .slice(0, 16),
        ]),
      );
      return fingerprints;
    },
    async close() {
      await Promise.allSettled(engines.map((engine) => engine.close()));
    },
  };
}
