import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { EngineError } from '@glossa/server/feature';
import { THREAD_YOUNG_GENERATION_MB } from '../thread-limits.js';

/**
 * English grammar and spelling with Harper (harper.js): its WebAssembly binary ships in the npm package and
 * is read from disk (no network). Loading takes seconds and some 240 MB (161 MB of it Harper's own WebAssembly
 * memory), so there is one linter per process, loaded on first use, in a worker thread: a 10 KiB text takes
 * a fraction of a second to seconds to lint, and the server's event loop must keep answering other requests
 * meanwhile. Calls are serialized (the dialect is linter state).
 *
 * Harper's 16 MB module is compiled by Liftoff, V8's baseline WebAssembly compiler, only: with V8's default
 * tier-up to TurboFan, the optimised code of its hot functions added another 120 to 160 MB to the thread and
 * made the first lints slower while it compiled (a 40 KB text: 1.1 s a lint with Liftoff only, 1.6 s with
 * tier-up; server-full/bench/warm-up-rss.ts for the memory). V8's flags are the process's: WebAssembly compiled
 * after the linter starts (cld3 when its thread restarts) is Liftoff-only too, about 10% slower to detect.
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

/** The worker: CommonJS evaluated from this string, importing harper.js by the absolute URL it is given. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const KINDS = ['replace', 'remove', 'insert_after'];
(async () => {
  const { LocalLinter, Dialect } = await import(workerData.harper);
  const { binary } = await import(workerData.binary);
  const linter = new LocalLinter({ binary, dialect: Dialect.American });
  await linter.setup();
  parentPort.on('message', async ({ id, op, text, dialect }) => {
    try {
      if (op === 'isEnglish') return parentPort.postMessage({ id, result: await linter.isLikelyEnglish(text) });
      await linter.setDialect(dialect === 'en-GB' ? Dialect.British : Dialect.American);
      const lints = await linter.lint(text, { language: 'plaintext' });
      // Every object the WebAssembly module hands out is freed, or its memory would grow per request.
      const result = lints.map((lint) => {
        const span = lint.span();
        const suggestions = lint.suggestions().map((suggestion) => {
          const out = { kind: KINDS[suggestion.kind()] || 'replace', text: suggestion.get_replacement_text() };
          suggestion.free();
          return out;
        });
        const out = { kind: lint.lint_kind(), message: lint.message(), start: span.start, end: span.end,
          problem: lint.get_problem_text(), suggestions };
        span.free();
        lint.free();
        return out;
      });
      parentPort.postMessage({ id, result });
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.message) || error) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ fatal: String((error && error.message) || error) }));
`;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

let started: Promise<Worker> | undefined;
let nextId = 0;
let queue: Promise<unknown> = Promise.resolve();
const pending = new Map<number, Pending>();

function startWorker(): Promise<Worker> {
  started ??= new Promise<Worker>((resolve, reject) => {
    setFlagsFromString('--liftoff-only');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
      workerData: {
        harper: import.meta.resolve('harper.js'),
        binary: import.meta.resolve('harper.js/binary'),
      },
    });
    // The worker never keeps the process alive on its own.
    worker.unref();
    const failAll = (error: Error) => {
      started = undefined;
      reject(error);
      for (const request of pending.values()) request.reject(error);
      pending.clear();
    };
    worker.on(
      'message',
      (message: { ready?: true; fatal?: string; id?: number; result?: unknown; error?: string }) => {
        if (message.ready) return resolve(worker);
        if (message.fatal !== undefined)
          return failAll(new EngineError(`Harper failed to load: ${message.fatal}`, 'harper'));
        const request = pending.get(message.id!);
        pending.delete(message.id!);
        if (message.error !== undefined)
          request?.reject(new EngineError(`Harper failed: ${message.error}`, 'harper'));
        else request?.resolve(message.result);
      },
    );
    worker.on('error', (error) =>
      failAll(new EngineError('Harper worker failed', 'harper', { cause: error })),
    );
    worker.on('exit', (code) =>
      failAll(new EngineError(`Harper worker stopped (exit code ${code})`, 'harper')),
    );
  });
  return started;
}

function call<T>(message: { op: 'lint' | 'isEnglish'; text: string; dialect?: EnglishDialect }): Promise<T> {
  const run = queue.then(async () => {
    const worker = await startWorker();
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, ...message });
    });
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Loads the shared linter now, so that the first request does not wait for it. */
export async function warmUpEnglish(): Promise<void> {
  await startWorker();
}

/** Lints plain English text in the given dialect. */
export function lintEnglish(text: string, dialect: EnglishDialect): Promise<EnglishLint[]> {
  return call<EnglishLint[]>({ op: 'lint', text, dialect });
}

/** Harper's own judgement of whether the text is English (its dictionary covers most of the words). */
export function isLikelyEnglish(text: string): Promise<boolean> {
  return call<boolean>({ op: 'isEnglish', text });
}

/** Stops the worker (the next call starts a new one). */
export async function closeEnglish(): Promise<void> {
  const worker = await started?.catch(() => undefined);
  started = undefined;
  await worker?.terminate();
}
