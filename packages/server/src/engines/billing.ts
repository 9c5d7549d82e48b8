/**
 * Which engine was sent how many characters for whom: each engine the server runs is wrapped
 * (`billedEngine`); a call that answers reports the code points it was sent to the caller's `onBilled`
 * (passed along with the engine input, through the output cache and the chain to the engine that served),
 * and the caller (the translate pipeline, a feature) sums them per request (`createEngineBill`) and stores
 * them per account and day (`Storage.recordEngineUsage`). The output cache and memory matches reach no
 * engine: nothing is counted for them. A call that throws counts nothing (providers do not bill a failed
 * call); one whose outputs the chain then rejects does (the provider billed it). LLM engines also report
 * the tokens each call's answer says it used (`billTokens`), also for an answer they then cannot parse.
 */
import type { EngineUsageRecord } from '../storage/storage.js';
import { codePoints } from '../translate/prepare.js';
import type { EngineInput, TranslationEngine } from './engine.js';

/** The tokens a call of an LLM engine used, as the provider's answer counts them. */
export interface BilledTokens {
  readonly tokensIn: number;
  readonly tokensOut: number;
}

/** Told, by the engine that answered, the characters it was sent (and, for an LLM call, its tokens). */
export type OnBilled = (engine: string, characters: number, tokens?: BilledTokens) => void;

/** An engine input that may carry `onBilled` (the chain passes its input on, so the field reaches the member). */
export type BilledInput = EngineInput & { readonly onBilled?: OnBilled };

const INLINE_CODE = /<[^>]*>/g;

/** Unicode code points of the texts, without the inline codes of a markup input (`<g id>`, `<x id/>`). */
export function billedCharacters(texts: readonly string[], markup: boolean): number {
  let characters = 0;
  for (const text of texts) characters += codePoints(markup ? text.replace(INLINE_CODE, '') : text);
  return characters;
}

/** Tells the input's `onBilled` (if any) the tokens one call of an LLM engine used. */
export function billTokens(input: EngineInput, engine: string, tokens: BilledTokens): void {
  if (tokens.tokensIn === 0 && tokens.tokensOut === 0) return;
  (input as BilledInput).onBilled?.(engine, 0, tokens);
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
  /** The characters (and tokens) per engine so far, as records of the account's day; empty when no engine was called. */
  records(accountId: string, day: string): EngineUsageRecord[];
}

export function createEngineBill(): EngineBill {
  const sums = new Map<string, { characters: number; tokensIn: number; tokensOut: number }>();
  return {
    onBilled(engine, characters, tokens) {
      const sum = sums.get(engine) ?? { characters: 0, tokensIn: 0, tokensOut: 0 };
      sum.characters += characters;
      sum.tokensIn += tokens?.tokensIn ?? 0;
      sum.tokensOut += tokens?.tokensOut ?? 0;
      sums.set(engine, sum);
    },
    records(accountId, day) {
      return Array.from(sums, ([engine, sum]) => ({ accountId, day, engine, ...sum }));
    },
  };
}
