import type { EngineFormality } from './engine.js';
import type { EngineChoice } from './registry.js';

/**
 * The server's own cache of engine outputs, per unit: the same unit through the same engine version
 * (its fingerprint), formality and markup mode is translated once. Engines are deterministic for a
 * fingerprint, so a hit is exactly what the engine would answer. When full, the oldest entries go first
 * (insertion order: cheaper than reordering on every hit, and nearly as good for repeated content).
 */
export interface OutputCache {
  translate(
    choice: EngineChoice,
    units: readonly string[],
    options: { readonly markup: boolean; readonly formality: EngineFormality },
  ): Promise<string[]>;
}

/** Units longer than this are not kept (they rarely repeat and would crowd out the rest). */
const MAX_CACHED_UNIT_LENGTH = 2_000;

export function createOutputCache(maxEntries: number): OutputCache {
  const entries = new Map<string, string>();
  return {
    async translate(choice, units, options) {
      const prefix = `${choice.engine.name}\u0000${choice.engine.fingerprint(choice.pair)}\u0000${options.formality}\u0000${options.markup ? 1 : 0}\u0000`;
      const outputs = new Array<string>(units.length);
      const missing: number[] = [];
      units.forEach((unit, index) => {
        const key = prefix + unit;
        const hit = entries.get(key);
        if (hit === undefined) missing.push(index);
        else outputs[index] = hit;
      });
      if (missing.length === 0) return outputs;
      const translated = await choice.engine.translate({
        texts: missing.map((index) => units[index]!),
        source: choice.pair.source,
        target: choice.pair.target,
        markup: options.markup,
        formality: options.formality,
      });
      missing.forEach((unitIndex, index) => {
        const output = translated[index] ?? '';
        outputs[unitIndex] = output;
        const unit = units[unitIndex]!;
        if (unit.length > MAX_CACHED_UNIT_LENGTH || maxEntries === 0) return;
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(prefix + unit, output);
      });
      return outputs;
    },
  };
}
