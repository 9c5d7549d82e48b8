/**
 * The interface every translation engine implements. The server's translate pipeline does everything
 * engine-independent before and after (validation, tag parsing, sentence splitting, glossary locking,
 * memory lookup, billing); an engine only turns source segments into target segments.
 *
 * Markup contract: when `markup` is true, a text holds inline codes written as XLIFF-style XML and
 * nothing else: `<g id="N">…</g>` for paired markup and `<x id="N"/>` for standalone codes, with text
 * XML-escaped (`&lt;`, `&gt;`, `&amp;`). The engine must return every code exactly once, `<g>` around the
 * words it wrapped in the source, properly nested. The pipeline maps the caller's real tags (XML or HTML)
 * to these codes and back.
 */

export interface LanguagePair {
  /** Canonical source language code (`en`, `es`). */
  readonly source: string;
  /** Canonical target language code (`es`, `en-XA`, `pt-BR`). */
  readonly target: string;
}

export type EngineFormality = 'default' | 'more' | 'less';

export interface EngineInput {
  readonly texts: readonly string[];
  readonly source: string;
  readonly target: string;
  readonly markup: boolean;
  readonly formality: EngineFormality;
  /**
   * Custom instructions the pipeline could not apply itself (beyond its deterministic subset, see
   * docs/resources.md): an engine that can follow natural-language instructions uses them, others ignore them.
   */
  readonly instructions?: readonly string[];
  readonly signal?: AbortSignal;
  /** The request's `context` (text around the segments, not translated): for engines that take context. */
  readonly context?: string;
  /**
   * Per text, what was wrong with the engine's previous answer (a retry of the "never worse" chain): an
   * engine that follows instructions is told; others ignore it.
   */
  readonly retryNotes?: readonly (string | undefined)[];
  /**
   * Glossary terms for an engine that translates them as words of the sentence (`supportsTerms`): each
   * occurrence of a source term, in any inflected form the engine recognises, becomes the target term,
   * inflected and agreed with like any word the engine chose itself.
   */
  readonly terms?: EngineTerms;
  /**
   * Told the indexes of `texts` whose output is the source because every engine failed them (the chain's
   * kept-source), not a translation: a caller that keeps outputs (the output cache) must not keep those. An
   * output equal to its input for any other reason (a name, doNotTranslate, a word the pair keeps) is a
   * translation like any other.
   */
  readonly onFailed?: (indexes: readonly number[]) => void;
}

export interface EngineTerms {
  /** Identifies the entries (glossary ids and versions, language pair), for caches of outputs and analyses. */
  readonly key: string;
  /** In priority order: at one place of the text the longest source wins, then the earliest entry. */
  readonly entries: readonly { readonly source: string; readonly target: string }[];
  /**
   * Wrap each term's words in the output between `TERM_START` and `TERM_END` (private-use characters), so
   * that the caller can keep post-editing off them; the caller removes the marks.
   */
  readonly marked?: boolean;
}

export const TERM_START = '\uE0F0';
export const TERM_END = '\uE0F1';

export interface TranslationEngine {
  /** `apertium`, `pseudo`, `upstream`. */
  readonly name: string;
  /** The pairs this engine can translate, as installed right now. */
  pairs(): readonly LanguagePair[];
  /** Identifies what produces the output for a pair (engine, data version, pivot); changes when output may change. */
  fingerprint(pair: LanguagePair): string;
  /**
   * Whether `translate` applies `terms` itself for this pair (inflection and agreement in the target);
   * otherwise the pipeline locks terms in codes and puts the targets in afterwards.
   */
  supportsTerms?(pair: LanguagePair): boolean;
  /** Whether the engine honours `formality: more | less` for this target. */
  supportsFormality(target: string): boolean;
  /** One output per input text, same order. Throws `EngineError` when the engine fails. */
  translate(input: EngineInput): Promise<string[]>;
  /**
   * How many of the text's lower-case words (the capitalized ones are mostly names) the engine knows in
   * the pair's source language; undefined when it cannot tell. A text the detector put on a language whose
   * engine knows few of its words is in another language.
   */
  knownWords?(pair: LanguagePair, text: string): Promise<{ known: number; words: number } | undefined>;
  /**
   * The words of the text the engine does not know in the pair's source language (it leaves them as they
   * are); undefined when it cannot tell. The chain reports a text that came back unchanged because of such
   * a word, when the word is an ordinary one (`untranslated.ts`).
   */
  unknownWords?(pair: LanguagePair, text: string): Promise<readonly string[] | undefined>;
  /**
   * How the engine chain checks this engine's outputs (see `verify.ts`): `full` for remote MT and LLMs
   * (codes, placeholders, glossary terms, language, length, echo), `structural` for codes and placeholders
   * only. Default: not checked (the local deterministic engines: pseudo, Apertium, upstream).
   */
  readonly verification?: 'full' | 'structural';
  /**
   * How the engine would split these texts into calls (indexes into `texts`, in order): the chain sends
   * each batch on its own so that its outputs are checked while the others are in flight.
   */
  plan?(texts: readonly string[]): number[][];
  /** Whether a retry with `retryNotes` can change the answer (an LLM); otherwise a failed segment moves on. */
  readonly followsNotes?: boolean;
  /** What the engine has used since it started: requests, characters sent, tokens in and out (LLMs). */
  usage?(): EngineUsage;
  /** Stops background processes. */
  close(): Promise<void>;
}

export interface EngineUsage {
  readonly requests: number;
  /** Source characters sent (what MT providers bill). */
  readonly characters: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
}

/** An engine failed (crashed, produced empty output for non-empty input, timed out). Maps to a 5xx. */
export class EngineError extends Error {
  override readonly name: string = 'EngineError';
  constructor(
    message: string,
    readonly engine: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The engine claimed a pair it turned out not to translate (a remote service refused the languages with
 * `unsupported_language`). Maps to a 400 for the caller, like a pair no engine claims.
 */
export class UnsupportedPairError extends EngineError {
  override readonly name = 'UnsupportedPairError';
}

/** A segment's words without its inline codes, `&lt;`, `&gt;` and `&amp;` read, spaces collapsed. */
export const words = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
