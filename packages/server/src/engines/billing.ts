/**
 * Which engine was sent how many characters for whom: each engine the server runs is wrapped
 * (`billedEngine`); a call that answers reports the code points it was sent to the caller's `onBilled`
 * (passed along with the engine input, through the output cache and the chain to the engine that served),
 * and the caller (the translate pipeline, a feature) sums them per request (`createEngineBill`) and stores
 * them per account and day (`Storage.recordEngineUsage`). The output cache and memory matches reach no
 * engine: nothing is counted for them. A call that throws counts nothing (providers do not bill a failed
 * call); one whose outputs the chain then rejects does (the provider billed it).
 */
import type { EngineUsageRecord } from '../storage/storage.js';
import { codePoints } from '../translate/prepare.js';
import type { EngineInput, TranslationEngine } from './engine.js';

/** Told, by the engine that answered, the characters it was sent. */
export type OnBilled = (engine: string, characters: number) => void;

/** An engine input that may carry `onBilled` (the chain passes its input on, so the field reaches the member). */
export type BilledInput = EngineInput & { readonly onBilled?: OnBilled };

const INLINE_CODE = /<[^>]*>/g;

/** Unicode code points of the texts, without the inline codes of a markup input (`<g id>`, `<x id/>`). */
export function billedCharacters(texts: readonly string[], markup: boolean): number {
  let characters = 0;
  for (const text of texts) characters += codePoints(markup ? text.replace(INLINE_CODE, '') : text);
  return characters;
}

/** The engine, telling the input's `onBilled` what each of its calls that answered was sent. */
export function billedEngine(engine: TranslationEngine): TranslationEngine {
  const translate: TranslationEngine['translate'] = async (input: BilledInput) => {
    const outputs = await engine.translate(input);
    input.onBilled?.(engine.name, billedCharacters(input.texts, input.markup));
    return outputs;
  };
  return new Proxy(engine, {
    get: (target, property) => (property === 'translate' ? translate : Reflect.get(target, property)),
  });
}

/** What one request (or job) had engines translate: `onBilled` to pass along, `records` to store. */
export interface EngineBill {
  readonly onBilled: OnBilled;
  /** The characters per engine so far, as records of the account's day; empty when no engine was called. */
  records(accountId: string, day: string): EngineUsageRecord[];
}

export function createEngineBill(): EngineBill {
  const characters = new Map<string, number>();
  return {
    onBilled(engine, count) {
      characters.set(engine, (characters.get(engine) ?? 0) + count);
    },
    records(accountId, day) {
      return Array.from(characters, ([engine, count]) => ({ accountId, day, engine, characters: count }));
    },
  };
}
