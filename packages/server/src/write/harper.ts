import { Dialect, type Lint, LocalLinter } from 'harper.js';
import { binary } from 'harper.js/binary';

/**
 * English grammar and spelling with Harper (harper.js), run in this process from its WebAssembly binary,
 * which the npm package ships and loads from disk (no network). Loading takes about a second and some
 * 350 MB, so there is one linter per process, loaded on first use and shared; calls are serialized because
 * the dialect is linter state.
 */

export type EnglishDialect = 'en-US' | 'en-GB';

export interface EnglishLint {
  /** Harper's category: `Spelling`, `Agreement`, `Repetition`... */
  readonly kind: string;
  readonly message: string;
  /** Code-point offsets into the text. */
  readonly start: number;
  readonly end: number;
  readonly problem: string;
  /** Fixes, best first. */
  readonly suggestions: readonly EnglishSuggestion[];
}

export interface EnglishSuggestion {
  /** `replace` the problem text, `remove` it, or `insert_after` it. */
  readonly kind: 'replace' | 'remove' | 'insert_after';
  readonly text: string;
}

const SUGGESTION_KINDS = ['replace', 'remove', 'insert_after'] as const;

let linter: Promise<LocalLinter> | undefined;
let queue: Promise<unknown> = Promise.resolve();

function loadLinter(): Promise<LocalLinter> {
  linter ??= (async () => {
    const instance = new LocalLinter({ binary, dialect: Dialect.American });
    await instance.setup();
    return instance;
  })();
  return linter;
}

/** Loads the shared linter now (the server calls this at start so the first request does not wait). */
export async function warmUpEnglish(): Promise<void> {
  await loadLinter();
}

/** Lints plain English text in the given dialect. */
export function lintEnglish(text: string, dialect: EnglishDialect): Promise<EnglishLint[]> {
  const run = queue.then(async () => {
    const instance = await loadLinter();
    await instance.setDialect(dialect === 'en-GB' ? Dialect.British : Dialect.American);
    const lints = await instance.lint(text, { language: 'plaintext' });
    return lints.map(toEnglishLint);
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Harper's own judgement of whether the text is English (its dictionary covers most of the words). */
export function isLikelyEnglish(text: string): Promise<boolean> {
  const run = queue.then(async () => (await loadLinter()).isLikelyEnglish(text));
  queue = run.catch(() => undefined);
  return run;
}

function toEnglishLint(lint: Lint): EnglishLint {
  // Every object handed out by the WebAssembly module is freed here, or its memory would grow per request.
  const span = lint.span();
  const suggestions = lint.suggestions().map((suggestion) => {
    const kind = SUGGESTION_KINDS[suggestion.kind()] ?? 'replace';
    const text = suggestion.get_replacement_text();
    suggestion.free();
    return { kind, text };
  });
  const result: EnglishLint = {
    kind: lint.lint_kind(),
    message: lint.message(),
    start: span.start,
    end: span.end,
    problem: lint.get_problem_text(),
    suggestions,
  };
  span.free();
  lint.free();
  return result;
}
