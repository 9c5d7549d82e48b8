/** Polling a background job with growing waits: documents and translation-memory jobs. */
import { JobTimeoutError, RequestAbortedError } from './errors.js';
import { sleep } from './retry.js';

export interface PollOptions {
  signal?: AbortSignal | undefined;
  /** First wait between polls, in ms. Default 250. */
  pollInterval?: number | undefined;
  /** Longest wait between polls, in ms. Default 5,000. */
  maxPollInterval?: number | undefined;
  /** Give up (with a `JobTimeoutError`) after this many ms in all. Default 15 minutes. */
  maxWait?: number | undefined;
}

export interface PollStep<T> {
  readonly done: boolean;
  readonly value: T;
  /** The service's own estimate of the time left, in ms (a document's `seconds_remaining`). */
  readonly hintMs?: number | undefined;
}

/** Call `check` until it reports done; waits grow ×1.5 from `pollInterval` up to `maxPollInterval`. */
export async function pollUntilDone<T>(
  what: string,
  options: PollOptions,
  check: () => Promise<PollStep<T>>,
): Promise<T> {
  const maxInterval = options.maxPollInterval ?? 5_000;
  const maxWait = options.maxWait ?? 15 * 60_000;
  let interval = Math.min(options.pollInterval ?? 250, maxInterval);
  const started = Date.now();
  for (;;) {
    const step = await check();
    if (step.done) return step.value;
    if (Date.now() - started >= maxWait)
      throw new JobTimeoutError(`${what} did not finish within ${maxWait} ms`);
    const wait =
      step.hintMs !== undefined ? Math.min(Math.max(step.hintMs, interval), maxInterval) : interval;
    try {
      await sleep(wait, options.signal);
    } catch (reason) {
      throw new RequestAbortedError(`${what} was aborted`, { cause: reason });
    }
    interval = Math.min(Math.ceil(interval * 1.5), maxInterval);
  }
}
