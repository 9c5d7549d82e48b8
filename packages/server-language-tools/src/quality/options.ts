/**
 * The options of quality evaluation (`languageToolsFeature({ quality })`), checked and completed once, when
 * the feature is made (a `TypeError` or `RangeError` names the wrong one).
 */

export interface QualityOptions {
  /**
   * Seconds an evaluation may take on its worker thread, from when the thread starts it: a job over it fails
   * with an `evaluation_failed` report, a synchronous evaluation with a 503, and its thread is replaced.
   * Default 300 (a job at the input limits takes 30 to 60 s on a shared core); at most 899 (15 minutes, the
   * bound the jobs had on pg-boss, kept).
   */
  evaluationTimeoutSeconds?: number;
  /**
   * The heap of each evaluation thread, in MiB (`resourceLimits.maxOldGenerationSizeMb`): a thread over it
   * fails its evaluation alone, the process keeps running. Default 1024 (a job at the input limits needs
   * about 500); 0: no cap (Node's default, that of the main thread).
   */
  threadHeapMb?: number;
  /**
   * Synchronous evaluations (`POST /v3/quality/evaluate`) run at once, each on a thread of its own (the jobs
   * have theirs); more wait in line, up to `MAX_WAITING_EVALUATIONS`, then 429. Default 2.
   */
  syncConcurrency?: number;
  /**
   * The synchronous alias evaluates on the event loop, as before the worker threads (the server answers
   * nothing meanwhile): the baseline of bench/quality-event-loop.ts, not for production. Default false.
   */
  syncOnEventLoop?: boolean;
}

export interface ResolvedQualityOptions {
  readonly evaluationTimeoutSeconds: number;
  readonly threadHeapMb: number;
  readonly syncConcurrency: number;
  readonly syncOnEventLoop: boolean;
}

export const DEFAULT_QUALITY_OPTIONS: ResolvedQualityOptions = Object.freeze({
  evaluationTimeoutSeconds: 300,
  threadHeapMb: 1024,
  syncConcurrency: 2,
  syncOnEventLoop: false,
});

export function resolveQualityOptions(options: QualityOptions = {}): ResolvedQualityOptions {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`quality: expected an options object, got ${String(options)}`);
  const timeout = options.evaluationTimeoutSeconds ?? DEFAULT_QUALITY_OPTIONS.evaluationTimeoutSeconds;
  if (typeof timeout !== 'number' || !(timeout >= 0.1 && timeout <= 899))
    throw new RangeError(
      `quality.evaluationTimeoutSeconds: expected a number from 0.1 to 899, got ${String(timeout)}`,
    );
  const heap = options.threadHeapMb ?? DEFAULT_QUALITY_OPTIONS.threadHeapMb;
  if (!Number.isSafeInteger(heap) || (heap !== 0 && (heap < 16 || heap > 65_536)))
    throw new RangeError(
      `quality.threadHeapMb: expected 0 (no cap) or an integer from 16 to 65536, got ${String(heap)}`,
    );
  const concurrency = options.syncConcurrency ?? DEFAULT_QUALITY_OPTIONS.syncConcurrency;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new RangeError(
      `quality.syncConcurrency: expected an integer from 1 to 64, got ${String(concurrency)}`,
    );
  const onLoop = options.syncOnEventLoop ?? false;
  if (typeof onLoop !== 'boolean')
    throw new TypeError(`quality.syncOnEventLoop: expected a boolean, got ${String(onLoop)}`);
  return Object.freeze({
    evaluationTimeoutSeconds: timeout,
    threadHeapMb: heap,
    syncConcurrency: concurrency,
    syncOnEventLoop: onLoop,
  });
}
