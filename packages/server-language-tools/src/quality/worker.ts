/**
 * A worker thread of quality evaluation (started by pool.ts): it evaluates one job or one synchronous request
 * at a time and answers its report (or answer) as UTF-8 JSON, serialized and encoded here too, so that the
 * main thread only stores or sends it. Hunspell's processes stay the main thread's: the words to check go
 * there and their answers come back.
 */
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { lowerThreadPriority } from '@glossa/server/thread-priority';
import {
  evaluate,
  evaluateSync,
  failedReport,
  type QualityReport,
  type QualityRequest,
  SpellingCheckFailed,
  utf8Json,
} from './evaluate.js';
import type { FromWorker, SyncOutcome, ToWorker } from './pool.js';
import type { HunspellCheck } from './spelling.js';

// An evaluation at the limits is seconds of a core: the event loop that answers every request comes first.
lowerThreadPriority();
const port = parentPort!;
const checks = new Map<number, { resolve(correct: boolean[]): void; reject(error: Error): void }>();
let nextCheck = 0;
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const hunspell: HunspellCheck = (dictionary, words) =>
  new Promise((resolve, reject) => {
    const check = nextCheck++;
    checks.set(check, { resolve, reject });
    post({ type: 'check', check, dictionary, words });
  });

/** A synchronous evaluation's outcome; its answer serialized as Fastify would (JSON.stringify). */
async function syncOutcome(message: Extract<ToWorker, { type: 'evaluate-sync' }>): Promise<SyncOutcome> {
  try {
    const answer = await evaluateSync(message.request, hunspell);
    return { kind: 'answer', json: new TextEncoder().encode(JSON.stringify(answer)) };
  } catch (error) {
    const kind = error instanceof SpellingCheckFailed ? 'spelling' : 'error';
    return { kind, message: (error as Error).message };
  }
}

port.on('message', async (message: ToWorker) => {
  if (message.type === 'checked') {
    const pending = checks.get(message.check)!;
    checks.delete(message.check);
    if (message.error === undefined) pending.resolve(message.correct!);
    else pending.reject(new Error(message.error));
    return;
  }
  post({ type: 'started' });
  if (message.type === 'evaluate-sync') {
    const outcome = await syncOutcome(message);
    post({ type: 'sync', outcome }, outcome.kind === 'answer' ? [outcome.json.buffer as ArrayBuffer] : []);
    return;
  }
  let report: QualityReport;
  try {
    const request =
      message.request instanceof Uint8Array
        ? (JSON.parse(gunzipSync(message.request).toString()) as QualityRequest)
        : message.request;
    report = await evaluate(message.id, request, hunspell);
  } catch (error) {
    // A stored request that cannot be read (never written so by this server).
    report = failedReport(message.id, (error as Error).message);
  }
  const json = utf8Json(report);
  post({ type: 'report', status: report.status, json }, [json.buffer as ArrayBuffer]);
});
