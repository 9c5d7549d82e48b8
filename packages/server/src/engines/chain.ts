/**
 * The engines of one language pair, in the configured order, behind one `TranslationEngine`: "never worse".
 * Each output of a checked engine (`verification`) passes `verifyOutput`, and one returned unchanged because
 * the engine did not know an ordinary word fails (`untranslated.ts`); a segment that fails is sent once
 * more to the same engine with what was wrong (when it follows notes: an LLM), then to the next engine of the
 * list, and when every engine failed it keeps its source text and is reported (`onKeptSource`). An engine
 * that throws passes its segments to the next one; when the last one throws too, the error stands (a 503:
 * nothing was verified, nothing is answered as a translation).
 */
import type { EngineInput, EngineUsage, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError, TERM_END, TERM_START } from './engine.js';
import { leftWords, untranslatedWords } from './untranslated.js';
import { verifyOutput } from './verify.js';

export interface ChainMember {
  readonly engine: TranslationEngine;
  /** The pair in the engine's own codes. */
  readonly pair: LanguagePair;
}

export interface KeptSource {
  readonly source: string;
  readonly target: string;
  readonly text: string;
  /** Per engine tried: what was wrong (or its error). */
  readonly attempts: readonly { readonly engine: string; readonly problems: readonly string[] }[];
  /**
   * Set when the text was translated but these ordinary words were left in the source language (the engine
   * did not know them): the output stands; the event names the words (`X-Glossa-Left-Words` names such a
   * text, `X-Glossa-Kept-Source` does not: it lists texts answered in the source language).
   */
  readonly left?: readonly string[];
}

/** Ordinary words an engine left in the source language inside a text it translated (`leftWords`). */
export interface LeftWords {
  /** The engine that answered the text. */
  readonly engine: string;
  readonly words: readonly string[];
}

/**
 * What a caller of the chain (the output cache) may add to `EngineInput`: told, per text, the words left in
 * the source language inside its output (so that a cached output reports them again: `reportLeft`).
 */
export interface LeftWordsInput {
  readonly onLeftWords?: (index: number, left: LeftWords) => void;
}

export interface ChainOptions {
  readonly detect?: (text: string, candidates: ReadonlySet<string>) => Promise<string | undefined>;
  readonly onKeptSource?: (event: KeptSource) => void;
}

const stripMarks = (text: string) => text.replaceAll(TERM_START, '').replaceAll(TERM_END, '');

export function createEngineChain(
  members: readonly ChainMember[],
  options: ChainOptions = {},
): TranslationEngine & {
  readonly counts: () => { retried: number; fellBack: number; keptSource: number };
  readonly reportLeft: LeftWordsReplay['reportLeft'];
} {
  if (members.length === 0) throw new TypeError('createEngineChain: expected at least one engine');
  const first = members[0]!;
  const counts = { retried: 0, fellBack: 0, keptSource: 0 };
  const reportLeft = (pair: LanguagePair, text: string, left: LeftWords) => {
    const list = left.words.map((word) => `"${word}"`).join(', ');
    options.onKeptSource?.({
      source: pair.source,
      target: pair.target,
      text,
      attempts: [
        {
          engine: left.engine,
          problems: [
            `left in the source language: ${list} ${left.words.length === 1 ? 'is' : 'are'} not in the engine's dictionary (a name or a term kept on purpose goes in doNotTranslate)`,
          ],
        },
      ],
      left: left.words,
    });
  };
  return {
    name: members.map((member) => member.engine.name).join('>'),
    pairs: () => [first.pair],
    fingerprint: () => members.map((member) => member.engine.fingerprint(member.pair)).join('>'),
    supportsTerms: () => members.every((member) => member.engine.supportsTerms?.(member.pair) ?? false),
    supportsFormality: () => first.engine.supportsFormality(first.pair.target),
    ...(first.engine.knownWords
      ? { knownWords: (_pair: LanguagePair, text: string) => first.engine.knownWords!(first.pair, text) }
      : {}),
    verification: 'full',
    counts: () => ({ ...counts }),
    reportLeft,
    usage(): EngineUsage {
      const all = members.map((member) => member.engine.usage?.());
      return {
        requests: all.reduce((sum, usage) => sum + (usage?.requests ?? 0), 0),
        characters: all.reduce((sum, usage) => sum + (usage?.characters ?? 0), 0),
        tokensIn: all.reduce((sum, usage) => sum + (usage?.tokensIn ?? 0), 0),
        tokensOut: all.reduce((sum, usage) => sum + (usage?.tokensOut ?? 0), 0),
      };
    },
    async translate(input: EngineInput): Promise<string[]> {
      const outputs = new Array<string | undefined>(input.texts.length);
      const history = input.texts.map(() => [] as { engine: string; problems: string[] }[]);
      /** Texts answered with ordinary words left untranslated inside (`leftWords`), by index. */
      const leftIn = new Map<number, { engine: string; words: string[] }>();
      let pending = input.texts.map((_, index) => index);
      let lastError: unknown;
      let anyAnswered = false;
      for (const [position, member] of members.entries()) {
        if (pending.length === 0) break;
        if (position > 0) counts.fellBack += pending.length;
        const { engine, pair } = member;
        const check = async (indexes: number[], answers: readonly string[]) =>
          Promise.all(
            indexes.map(async (textIndex, index) => {
              const output = answers[index] === undefined ? undefined : stripMarks(answers[index]);
              const source = input.texts[textIndex]!;
              const problems = engine.verification
                ? await verifyOutput({
                    source,
                    output,
                    sourceLang: input.source,
                    targetLang: input.target,
                    terms: input.terms?.entries,
                    detect: options.detect,
                    structuralOnly: engine.verification === 'structural',
                  })
                : [];
              if (problems.length > 0 || output === undefined) return problems;
              // A judgement that cannot be made (the engine's analyser failed) leaves the output as it is.
              const untranslated = await untranslatedWords(engine, pair, source, output).catch(
                () => undefined,
              );
              if (untranslated !== undefined) return [untranslated];
              const left = await leftWords(engine, pair, source, output).catch(() => undefined);
              if (left) leftIn.set(textIndex, { engine: engine.name, words: left });
              else leftIn.delete(textIndex);
              return [];
            }),
          );
        const {
          onFailed: _onFailed,
          onLeftWords: _onLeftWords,
          ...memberInput
        } = input as EngineInput & LeftWordsInput;
        const call = (indexes: number[], notes?: (string | undefined)[]) =>
          engine.translate({
            ...memberInput,
            texts: indexes.map((index) => input.texts[index]!),
            source: pair.source,
            target: pair.target,
            ...(notes ? { retryNotes: notes } : {}),
          });
        /** One group of texts through this engine: answer, check, retry once with notes; the failed ones. */
        const runGroup = async (group: number[]): Promise<number[]> => {
          let answers: string[];
          try {
            answers = await call(group);
          } catch (error) {
            if (input.signal?.aborted) throw error;
            lastError = error;
            for (const index of group)
              history[index]!.push({ engine: engine.name, problems: [describe(error)] });
            return group;
          }
          anyAnswered = true;
          let problems = await check(group, answers);
          let failed: number[] = [];
          group.forEach((textIndex, index) => {
            if (problems[index]!.length === 0) outputs[textIndex] = answers[index];
            else {
              failed.push(textIndex);
              history[textIndex]!.push({ engine: engine.name, problems: problems[index]! });
            }
          });
          if (failed.length === 0 || !engine.followsNotes) return failed;
          counts.retried += failed.length;
          const notes = failed.map((textIndex) => history[textIndex]!.at(-1)!.problems.join('; '));
          try {
            answers = await call(failed, notes);
          } catch (error) {
            if (input.signal?.aborted) throw error;
            lastError = error;
            return failed;
          }
          problems = await check(failed, answers);
          const still: number[] = [];
          failed.forEach((textIndex, index) => {
            if (problems[index]!.length === 0) outputs[textIndex] = answers[index];
            else {
              still.push(textIndex);
              history[textIndex]!.push({ engine: engine.name, problems: problems[index]! });
            }
          });
          failed = still;
          return failed;
        };
        // The engine's own batches, each checked (and retried) as soon as it is answered, while the other
        // batches are still in flight.
        const texts = pending.map((index) => input.texts[index]!);
        const groups = engine.plan
          ? engine.plan(texts).map((batch) => batch.map((position) => pending[position]!))
          : [pending];
        pending = (await Promise.all(groups.map(runGroup))).flat().sort((a, b) => a - b);
      }
      if (pending.length > 0 && !anyAnswered && lastError !== undefined) {
        throw lastError instanceof EngineError
          ? lastError
          : new EngineError(describe(lastError), members.at(-1)!.engine.name, { cause: lastError });
      }
      if (pending.length > 0) input.onFailed?.(pending);
      for (const index of pending) {
        counts.keptSource++;
        outputs[index] = input.texts[index]!;
        options.onKeptSource?.({
          source: input.source,
          target: input.target,
          text: input.texts[index]!,
          attempts: history[index]!,
        });
      }
      const { onLeftWords } = input as EngineInput & LeftWordsInput;
      for (const [index, left] of leftIn) {
        if (pending.includes(index)) continue;
        onLeftWords?.(index, left);
        reportLeft({ source: input.source, target: input.target }, input.texts[index]!, left);
      }
      return outputs as string[];
    },
    async close() {
      // The members belong to the registry, which closes them.
    },
  };
}

/** A chain's `reportLeft`: the event of words left in `text`, again (an output served from a cache). */
export interface LeftWordsReplay {
  readonly reportLeft: (pair: LanguagePair, text: string, left: LeftWords) => void;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
