/**
 * The worker threads that evaluate quality-evaluation jobs, so that the server's event loop keeps answering
 * while a job runs (a job at the input limits is seconds to tens of seconds of checks). The job kind
 * (service.ts) runs at most its `concurrency` jobs at once per instance, so a pool has at most that many threads: one per running job, started when needed, kept `IDLE_MS` after its job for
 * the next one, then stopped (a thread that checked English holds some 100 MB of dictionaries).
 *
 * The synchronous alias (`POST /v3/quality/evaluate`) runs on the same threads: at most `syncConcurrency`
 * at once (besides the jobs), more wait in line (at most `MAX_WAITING_EVALUATIONS`).
 *
 * A thread that fails (an uncaught error, out of memory: `threadHeapMb`) or runs longer than
 * `evaluationTimeoutSeconds` fails its evaluation (a job with an `evaluation_failed` report) and is
 * terminated; the next evaluation gets a new thread. `close` stops every thread at once: their jobs get no report (they
 * stay `running`, and are run again as after a kill: at the next start, or by another instance).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { MAX_EVALUATION_SEGMENT_LENGTH, MAX_EVALUATION_SEGMENTS } from '@glossa/protocol';
import { onMemoryPressure, reserveMemory, reserveMemoryPatiently } from '@glossa/server/feature';
import { THREAD_YOUNG_GENERATION_MB } from '../thread-limits.js';
import { failedReport, type QualityRequest, type SyncQualityRequest, utf8Json } from './evaluate.js';
import { DEFAULT_QUALITY_OPTIONS, type ResolvedQualityOptions } from './options.js';
import { checkWithHunspell } from './spelling.js';

/**
 * The memory an evaluation may add to the process (its thread's working set, the report), reserved from the
 * server's budget before it starts (`reserveMemory`: it waits its turn, or is refused with 503 and
 * `Retry-After`, and a job then asks again after it; a small one is not queued): bytes per character of its segments (both sides). Measured with the abuse
 * test's inputs from the sources: a job of 10 M characters added 137 MB at the peak, a synchronous
 * evaluation of 1 M characters 83 MB.
 */
export const evaluationBytes = (kind: 'job' | 'sync', characters: number) =>
  2 ** 20 + (kind === 'job' ? 16 : 96) * characters;
/** The characters of a request's segments (both sides). */
export const charactersOf = (request: QualityRequest) =>
  request.segments.reduce((sum, segment) => sum + segment.source.length + segment.translation.length, 0);
/** The most characters a job may have (both sides of every segment). */
const MAX_JOB_CHARACTERS = 2 * MAX_EVALUATION_SEGMENTS * MAX_EVALUATION_SEGMENT_LENGTH;
/**
 * How long a job waits in the memory admission's queue at a time: refused then (or at once, for a full queue
 * or an RSS that stays), it waits the refusal's Retry-After and queues again (`reserveMemoryPatiently`): a
 * busy server is no failure of a job, which has no client waiting on its answer.
 */
const JOB_MEMORY_WAIT_MS = 10 * 60_000;

/** How long an idle thread waits for another evaluation before it stops. */
const IDLE_MS = 30_000;
/** Synchronous evaluations waiting for a thread at most; more are refused (`evaluateSync` answers `busy`). */
export const MAX_WAITING_EVALUATIONS = 32;

/**
 * A finished evaluation: the report's status, and the report as JSON in UTF-8 (what the backends store),
 * serialized and encoded in the worker thread and handed over without a copy.
 */
export interface EvaluatedJob {
  readonly status: 'done' | 'error';
  readonly json: Uint8Array;
}

/**
 * A synchronous evaluation's outcome: its answer as JSON in UTF-8; the spelling check failed (a Hunspell
 * process); the checks threw (`error`); the thread failed or ran out of time (`failed`); too many waiting
 * (`busy`).
 */
export type SyncOutcome =
  | { readonly kind: 'answer'; readonly json: Uint8Array }
  | { readonly kind: 'spelling' | 'error' | 'failed'; readonly message: string }
  | { readonly kind: 'busy' };

/** What the main thread sends a worker: an evaluation, or the answer to its words' check. */
export type ToWorker =
  | {
      readonly type: 'evaluate';
      readonly id: string;
      /** The request, or its JSON gzip-compressed (as the job file `request` holds it), which the thread reads. */
      readonly request: QualityRequest | Uint8Array;
    }
  | { readonly type: 'evaluate-sync'; readonly request: SyncQualityRequest }
  | {
      readonly type: 'checked';
      readonly check: number;
      readonly correct?: boolean[];
      readonly error?: string;
    };

/**
 * What a worker sends: that it started the evaluation (its time limit runs from then), words to check with
 * Hunspell, the report of its job, or the outcome of a synchronous evaluation.
 */
export type FromWorker =
  | { readonly type: 'started' }
  | {
      readonly type: 'check';
      readonly check: number;
      readonly dictionary: string;
      readonly words: readonly string[];
    }
  | ({ readonly type: 'report' } & EvaluatedJob)
  | { readonly type: 'sync'; readonly outcome: SyncOutcome };

export interface EvaluationPool {
  /**
   * Evaluates a job on a thread: its report, or undefined when the pool was closed before it finished. The
   * request may be its JSON gzip-compressed: the thread decompresses and parses it (`characters`: its
   * segments' characters, for the memory it reserves first; unknown: the most a job may have). `signal`
   * aborted (the job cancelled, or its runner closing): its thread is stopped, and it resolves undefined.
   */
  evaluate(
    id: string,
    request: QualityRequest | Uint8Array,
    signal?: AbortSignal,
    characters?: number,
  ): Promise<EvaluatedJob | undefined>;
  /**
   * Evaluates a synchronous request on a thread, after the ones before it when `syncConcurrency` run;
   * undefined when the pool was closed before it finished.
   */
  evaluateSync(request: SyncQualityRequest): Promise<SyncOutcome | undefined>;
  /**
   * Starts a thread and runs a small evaluation of each kind on it (its modules and the English dictionaries
   * loaded); from then on the pool keeps one thread alive when idle, so that the first evaluation after a
   * start, or after a quiet while, does not wait for a thread to load. Rejects when that evaluation fails.
   */
  warm(): Promise<void>;
  /** Threads alive (busy or idle), and synchronous evaluations running and waiting: the metrics' gauges. */
  stats(): { threads: number; syncRunning: number; syncWaiting: number };
  /** Stops every thread; running evaluations resolve undefined. */
  close(): Promise<void>;
}

/** The worker's entry: compiled `worker.js` when built; from the sources, a bootstrap that loads `worker.ts` with tsx. */
function workerEntry(): { url: URL; execArgv: string[] } {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, execArgv: [] };
  return {
    url: new URL('./worker-source.mjs', import.meta.url),
    execArgv: ['--conditions', '@glossa/source'],
  };
}

/** The evaluation a thread runs: how it ends with a result, and its result when the thread fails. */
interface Running {
  readonly settle: (result: unknown) => void;
  readonly failed: (reason: string) => unknown;
}

/** One worker thread, one evaluation at a time. */
class EvaluationThread {
  readonly worker: Worker;
  private running: Running | undefined;
  private timer: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  /** Failed or stopped: it takes no more evaluations. */
  dead = false;

  constructor(
    onExit: (thread: EvaluationThread) => void,
    resourceLimits: ResourceLimits,
    private readonly timeoutMs: number,
  ) {
    const entry = workerEntry();
    this.worker = new Worker(entry.url, { execArgv: entry.execArgv, resourceLimits });
    // Only a thread with an evaluation keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'started') this.startClock();
      else if (message.type === 'check') void this.check(message.check, message.dictionary, message.words);
      else if (message.type === 'report') this.finish({ status: message.status, json: message.json });
      else this.finish(message.outcome);
    });
    this.worker.on('error', (error) => {
      this.dead = true;
      this.fail(error.message);
    });
    this.worker.on('exit', (code) => {
      this.dead = true;
      this.fail(`its worker thread stopped (exit code ${code}).`);
      onExit(this);
    });
  }

  /** Runs an evaluation; `failed` makes its result when the thread fails. Undefined: stopped meanwhile. */
  run<T>(message: ToWorker, failed: (reason: string) => T): Promise<T | undefined> {
    return new Promise((resolve) => {
      this.running = { settle: resolve as (result: unknown) => void, failed };
      this.worker.ref();
      this.post(message);
    });
  }

  /** Terminates the thread; its evaluation, if any, resolves undefined. */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.finish(undefined);
    await this.worker.terminate();
  }

  /** The time limit of the evaluation, from when the thread starts it (its modules are loaded by then). */
  private startClock(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.dead = true;
      this.fail(`it took longer than its time limit (${this.timeoutMs / 1000} s).`);
      void this.worker.terminate();
    }, this.timeoutMs);
  }

  private finish(result: unknown): void {
    clearTimeout(this.timer);
    const running = this.running;
    this.running = undefined;
    this.worker.unref();
    running?.settle(result);
  }

  private fail(reason: string): void {
    if (this.running) this.finish(this.running.failed(reason));
  }

  /** Checks words with this (the main) thread's Hunspell processes for the worker. */
  private async check(check: number, dictionary: string, words: readonly string[]): Promise<void> {
    try {
      this.post({ type: 'checked', check, correct: await checkWithHunspell(dictionary, words) });
    } catch (error) {
      this.post({ type: 'checked', check, error: (error as Error).message });
    }
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }
}

/**
 * A pool of evaluation threads, with the quality options' time limit, heap cap and synchronous concurrency.
 * `resourceLimits`, when given, replaces the heap cap of the options (tests).
 */
export function startEvaluationPool(
  options: Pick<
    ResolvedQualityOptions,
    'evaluationTimeoutSeconds' | 'threadHeapMb' | 'syncConcurrency'
  > = DEFAULT_QUALITY_OPTIONS,
  resourceLimits: ResourceLimits = options.threadHeapMb > 0
    ? { maxOldGenerationSizeMb: options.threadHeapMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB }
    : { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
): EvaluationPool {
  const threads = new Set<EvaluationThread>();
  const idle: EvaluationThread[] = [];
  const timeoutMs = options.evaluationTimeoutSeconds * 1000;
  let closed = false;
  /** Keep one idle thread (after `warm`). */
  let keepOne = false;
  let syncRunning = 0;
  /** Synchronous evaluations waiting for their turn. */
  const waiting: (() => void)[] = [];

  const forget = (thread: EvaluationThread) => {
    threads.delete(thread);
    if (idle.includes(thread)) idle.splice(idle.indexOf(thread), 1);
  };

  /** Runs one evaluation on an idle thread or a new one, which waits `IDLE_MS` for the next afterwards. */
  async function onThread<T>(
    message: ToWorker,
    failed: (reason: string) => T,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    if (closed || signal?.aborted) return undefined;
    let thread = idle.pop();
    if (thread) clearTimeout(thread.idleTimer);
    else {
      thread = new EvaluationThread(forget, resourceLimits, timeoutMs);
      threads.add(thread);
    }
    const running = thread;
    const abort = () => {
      running.dead = true;
      forget(running);
      void running.stop();
    };
    signal?.addEventListener('abort', abort, { once: true });
    const result = await thread.run(message, failed);
    signal?.removeEventListener('abort', abort);
    if (!closed && !thread.dead) {
      idle.push(thread);
      const waitingThread = thread;
      const stopIdle = () => {
        // The last thread of a warmed pool stays, for the next evaluation.
        if (keepOne && threads.size === 1) return;
        forget(waitingThread);
        void waitingThread.stop();
      };
      waitingThread.idleTimer = setTimeout(stopIdle, IDLE_MS);
      waitingThread.idleTimer.unref();
    }
    return result;
  }

  // Heavy work waiting for memory: idle threads stop now, the warmed pool's last one too (a thread that
  // evaluated a large request keeps its heap grown; the next evaluation starts a thread, which is kept).
  const stopRelieving = onMemoryPressure(() => {
    for (const thread of [...idle]) {
      forget(thread);
      void thread.stop();
    }
  });

  return {
    async evaluate(id, request, signal, characters) {
      const size = characters ?? (request instanceof Uint8Array ? MAX_JOB_CHARACTERS : charactersOf(request));
      // A job stopped while it waits (cancelled, its runner closing) resolves undefined, as when it runs.
      const release = await reserveMemoryPatiently(
        'A quality evaluation',
        evaluationBytes('job', size),
        JOB_MEMORY_WAIT_MS,
        signal,
      ).catch((error: unknown) => {
        if (signal?.aborted) return undefined;
        throw error;
      });
      if (!release) return undefined;
      try {
        return await onThread(
          { type: 'evaluate', id, request },
          (reason) => ({ status: 'error' as const, json: utf8Json(failedReport(id, reason)) }),
          signal,
        );
      } finally {
        release();
      }
    },
    async evaluateSync(request) {
      if (closed) return undefined;
      if (syncRunning < options.syncConcurrency) syncRunning++;
      else {
        if (waiting.length >= MAX_WAITING_EVALUATIONS) return { kind: 'busy' };
        // The slot of an evaluation that ends is handed over as is (`syncRunning` stays).
        await new Promise<void>((resolve) => waiting.push(resolve));
        if (closed) return undefined;
      }
      try {
        // Waits for memory with its slot held (503 with `Retry-After` when it does not come in time).
        const release = await reserveMemory(
          'A quality evaluation',
          evaluationBytes('sync', charactersOf(request)),
        );
        try {
          return await onThread<SyncOutcome>({ type: 'evaluate-sync', request }, (reason) => ({
            kind: 'failed',
            message: reason,
          }));
        } finally {
          release();
        }
      } finally {
        const next = waiting.shift();
        if (next) next();
        else syncRunning--;
      }
    },
    async warm() {
      keepOne = true;
      for (const targetLang of ['en-US', 'es']) {
        const request = {
          sourceLang: 'en',
          targetLang,
          segments: [{ source: 'Keep 25 files.', translation: 'Keep 52 colour files.' }],
        };
        const outcome = await onThread<SyncOutcome>({ type: 'evaluate-sync', request }, (reason) => ({
          kind: 'failed',
          message: reason,
        }));
        if (outcome && outcome.kind !== 'answer')
          throw new Error(
            `quality evaluation failed to warm up: ${'message' in outcome ? outcome.message : outcome.kind}`,
          );
      }
    },
    stats() {
      return { threads: threads.size, syncRunning, syncWaiting: waiting.length };
    },
    async close() {
      closed = true;
      stopRelieving();
      for (const wake of waiting.splice(0)) wake();
      await Promise.all([...threads].map((thread) => thread.stop()));
      threads.clear();
      idle.length = 0;
    },
  };
}
