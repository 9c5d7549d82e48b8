import type { BilledInput, OnBilled } from './billing.js';
import type { LeftWords, LeftWordsInput, LeftWordsReplay } from './chain.js';
import { EngineError, type EngineFormality, type EngineTerms } from './engine.js';
import type { EngineChoice } from './registry.js';

/**
 * The server's own cache of engine outputs, per unit: the same unit through the same engine version
 * (its fingerprint), formality and markup mode is translated once. Engines are deterministic for a
 * fingerprint, so a hit is exactly what the engine would answer. When full, the oldest entries go first
 * (insertion order: cheaper than reordering on every hit, and nearly as good for repeated content).
 * An output the chain answered with ordinary words left in the source language is kept with those words,
 * and a hit reports them again (the chain's `reportLeft`), as the engine's answer did.
 */
export interface OutputCache {
  translate(
    choice: EngineChoice,
    units: readonly string[],
    options: {
      readonly markup: boolean;
      readonly formality: EngineFormality;
      readonly instructions?: readonly string[];
      /** The request's `context`, for engines that take it. */
      readonly context?: string;
      /** Glossary terms the engine applies itself (`supportsTerms`); outputs are kept per `terms.key`. */
      readonly terms?: EngineTerms;
      /** Told what each engine that answered was sent (`billing.ts`); not part of the cache's key. */
      readonly onBilled?: OnBilled;
    },
  ): Promise<string[]>;
}

/** Units longer than this are not kept (they rarely repeat and would crowd out the rest). */
const MAX_CACHED_UNIT_LENGTH = 2_000;

/** An output with words left in the source language (most outputs are kept as a plain string). */
interface LeftOutput {
  readonly output: string;
  readonly left: LeftWords;
}

export function createOutputCache(maxEntries: number): OutputCache {
  // One map per engine version, formality and markup mode, keyed by the unit itself: a unit's hash is
  // computed once per string, where a concatenated key would be built and hashed again on every lookup.
  const tables = new Map<string, Map<string, string | LeftOutput>>();
  let size = 0;
  const evictOne = (preferred: Map<string, string | LeftOutput>) => {
    const table = preferred.size > 0 ? preferred : [...tables.values()].find((other) => other.size > 0);
    const oldest = table?.keys().next().value;
    if (table && oldest !== undefined) {
      table.delete(oldest);
      size--;
    }
  };
  /** The engine's outputs for `texts`, checked to be one string per text. */
  const run = async (
    choice: EngineChoice,
    texts: readonly string[],
    options: Parameters<OutputCache['translate']>[2],
    onFailed?: (indexes: readonly number[]) => void,
    onLeftWords?: LeftWordsInput['onLeftWords'],
  ): Promise<string[]> => {
    const input: BilledInput & LeftWordsInput = {
      texts,
      source: choice.pair.source,
      target: choice.pair.target,
      markup: options.markup,
      formality: options.formality,
      ...(options.instructions?.length ? { instructions: options.instructions } : {}),
      ...(options.context ? { context: options.context } : {}),
      ...(options.terms ? { terms: options.terms } : {}),
      ...(options.onBilled ? { onBilled: options.onBilled } : {}),
      ...(onFailed ? { onFailed } : {}),
      ...(onLeftWords ? { onLeftWords } : {}),
    };
    const translated = await choice.engine.translate(input);
    if (!Array.isArray(translated) || translated.length !== texts.length) {
      throw new EngineError(
        `${choice.engine.name} returned ${Array.isArray(translated) ? translated.length : 'no'} outputs for ${texts.length} texts`,
        choice.engine.name,
      );
    }
    return translated;
  };
  return {
    async translate(choice, units, options) {
      // No cache: nothing to look up (hashing every unit for a miss).
      if (maxEntries === 0) return run(choice, units, options);
      const id = `${choice.engine.name}\u0000${choice.engine.fingerprint(choice.pair)}\u0000${options.formality}\u0000${options.markup ? 1 : 0}\u0000${(options.instructions ?? []).join('\u0001')}\u0000${options.terms?.key ?? ''}\u0000${options.context ?? ''}`;
      let table = tables.get(id);
      if (!table) {
        table = new Map();
        tables.set(id, table);
      }
      const outputs = new Array<string>(units.length);
      const missing: number[] = [];
      for (let index = 0; index < units.length; index++) {
        const hit = table.get(units[index]!);
        if (hit === undefined) missing.push(index);
        else if (typeof hit === 'string') outputs[index] = hit;
        else {
          outputs[index] = hit.output;
          (choice.engine as Partial<LeftWordsReplay>).reportLeft?.(choice.pair, units[index]!, hit.left);
        }
      }
      if (missing.length === 0) return outputs;
      // A chain answers the source where every engine failed (it says which): tried again next time, not
      // kept. An output equal to its unit on purpose (a name, doNotTranslate) is kept like any other.
      const failed = new Set<number>();
      const left = new Map<number, LeftWords>();
      const translated = await run(
        choice,
        missing.map((index) => units[index]!),
        options,
        (indexes) => {
          for (const index of indexes) failed.add(index);
        },
        (index, words) => left.set(index, words),
      );
      missing.forEach((unitIndex, index) => {
        const output = translated[index]!;
        outputs[unitIndex] = output;
        const unit = units[unitIndex]!;
        if (unit.length > MAX_CACHED_UNIT_LENGTH || table.has(unit) || failed.has(index)) return;
        if (size >= maxEntries) evictOne(table);
        const words = left.get(index);
        table.set(unit, words ? { output, left: words } : output);
        size++;
      });
      return outputs;
    },
  };
}
