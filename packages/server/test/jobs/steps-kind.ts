/**
 * The job kind of the runner's tests: `steps` steps of `stepMs` each, a digest chained over them, one
 * character of usage per step, a checkpoint after each. Its result depends only on its input, so a job
 * interrupted any number of times must end with the digest of an uninterrupted run (`expectedDigest`).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UsageCharge } from '../../src/jobs/job-backend.js';
import type { JobKind } from '../../src/jobs/job-runner.js';
import { JobFailed } from '../../src/jobs/job-runner.js';

export interface StepsInput {
  readonly steps: number;
  readonly stepMs: number;
  /** Attempts that throw at their first step (then the job runs). */
  readonly failAttempts?: number;
  /** Fails for good, at once (`JobFailed`). */
  readonly bad?: boolean;
  /** Units refunded when the job ends failed or cancelled. */
  readonly refund?: number;
}
export interface StepsCheckpoint {
  readonly done: number;
  readonly digest: string;
}
export interface StepsResult {
  readonly digest: string;
}

export const KEY_ID = 'job-tests';
export const DAY = '2026-11-01';

const next = (digest: string, step: number) => createHash('sha256').update(`${digest}:${step}`).digest('hex');

export function expectedDigest(steps: number): string {
  let digest = '';
  for (let step = 0; step < steps; step++) digest = next(digest, step);
  return digest;
}

const usage = (accountId: string, units: number) => ({
  accountId,
  keyId: KEY_ID,
  product: 'translate' as const,
  units,
  customTag: '',
  day: DAY,
});

/** The kind; `seen` (when given) records each step an attempt starts, as `<job id>:<attempt>:<step>`. */
export function stepsKind(
  options: { name?: string; seen?: string[]; maxFailures?: number; resultTtlMs?: number } = {},
): JobKind<StepsInput, StepsCheckpoint, StepsResult> {
  return {
    name: options.name ?? 'test/steps',
    maxFailures: options.maxFailures ?? 3,
    retryDelayMs: 100,
    ...(options.resultTtlMs === undefined ? {} : { resultTtlMs: options.resultTtlMs }),
    async run(job) {
      let { done, digest } = job.checkpoint ?? { done: 0, digest: '' };
      if (job.input.bad) throw new JobFailed('this input cannot be processed');
      if (job.attempt <= (job.input.failAttempts ?? 0)) throw new Error(`attempt ${job.attempt} failed`);
      while (done < job.input.steps) {
        job.signal.throwIfAborted();
        options.seen?.push(`${job.id}:${job.attempt}:${done}`);
        await sleep(job.input.stepMs);
        digest = next(digest, done);
        job.charge(`step-${done}`, usage(job.accountId, 1));
        done++;
        await job.save({ done, digest });
      }
      return { digest };
    },
    refund(job): readonly UsageCharge[] {
      return job.input.refund ? [{ step: 'refund', record: usage(job.accountId, -job.input.refund) }] : [];
    },
  };
}

/** The input of `filesKind`'s jobs (their bytes are the job file `input`). */
export interface FilesInput {
  /** The first attempt kills its process (SIGKILL) once its output is written, before the job completes. */
  readonly killAfterOutput?: boolean;
}

/** What `filesKind` writes as the job file `output` for the job file `input`. */
export const outputOf = (input: Uint8Array): Buffer =>
  Buffer.concat([createHash('sha256').update(input).digest(), Buffer.from(input).reverse()]);

/** A kind with job files: reads its file `input`, writes `output` (`outputOf`), its result the input's size. */
export function filesKind(
  options: { resultTtlMs?: number; keepFiles?: readonly string[] } = {},
): JobKind<FilesInput, never, { size: number }> {
  return {
    name: 'test/files',
    retryDelayMs: 100,
    maxPerAccount: 3,
    ...(options.resultTtlMs === undefined ? {} : { resultTtlMs: options.resultTtlMs }),
    ...(options.keepFiles === undefined ? {} : { keepFiles: options.keepFiles }),
    async run(job) {
      const input = await job.file('input');
      if (!input) throw new JobFailed('the job has no input file');
      await job.writeFile('output', outputOf(input));
      if (job.input.killAfterOutput && job.attempt === 1) process.kill(process.pid, 'SIGKILL');
      return { size: input.length };
    },
  };
}
