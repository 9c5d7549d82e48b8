import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EngineError } from '@glossa/server/feature';
import { THREAD_YOUNG_GENERATION_MB } from '../thread-limits.js';
import type { DetectionResult } from './detector.js';

/**
 * The process's language detector, shared by detect and write: the detectors live on a worker thread
 * (worker.ts), loaded there on first use or by the feature's warm-up at start. Loading them on the event
 * loop held it for seconds (7.7 s measured) and every client of the server waited; detecting a few texts
 * costs a message each way.
 */
export interface SharedDetector {
  /** One result per text, in order. */
  detect(texts: readonly string[]): Promise<DetectionResult[]>;
}

interface Pending {
  resolve(results: DetectionResult[]): void;
  reject(error: Error): void;
}

let started: Promise<SharedDetector> | undefined;
let thread: Worker | undefined;

/** The thread's entry: compiled `worker.js` when built; from the sources, a bootstrap that loads `worker.ts`. */
function workerEntry(): { url: URL; execArgv: string[] } {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, execArgv: [] };
  return {
    url: new URL('./worker-source.mjs', import.meta.url),
    execArgv: ['--conditions', '@glossa/source'],
  };
}

/** The detector, its thread started (and its models loaded) on the first call. */
export function sharedLanguageDetector(): Promise<SharedDetector> {
  started ??= new Promise<SharedDetector>((resolve, reject) => {
    const entry = workerEntry();
    const worker = new Worker(entry.url, {
      execArgv: entry.execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    });
    thread = worker;
    // The thread never keeps the process alive on its own.
    worker.unref();
    const pending = new Map<number, Pending>();
    let nextId = 0;
    const failAll = (error: Error) => {
      if (thread === worker) {
        started = undefined;
        thread = undefined;
      }
      reject(error);
      for (const request of pending.values()) request.reject(error);
      pending.clear();
    };
    const detector: SharedDetector = {
      detect(texts) {
        if (texts.length === 0) return Promise.resolve([]);
        return new Promise((resolveDetect, rejectDetect) => {
          const id = nextId++;
          pending.set(id, { resolve: resolveDetect, reject: rejectDetect });
          worker.ref();
          worker.postMessage({ id, texts });
        });
      },
    };
    worker.on(
      'message',
      (message: {
        ready?: true;
        fatal?: string;
        id?: number;
        results?: DetectionResult[];
        error?: string;
      }) => {
        if (message.ready) return resolve(detector);
        if (message.fatal !== undefined)
          return failAll(new EngineError(`Language detection failed to load: ${message.fatal}`, 'detection'));
        const request = pending.get(message.id!);
        pending.delete(message.id!);
        if (pending.size === 0) worker.unref();
        if (message.error !== undefined)
          request?.reject(new EngineError(`Language detection failed: ${message.error}`, 'detection'));
        else request?.resolve(message.results!);
      },
    );
    worker.on('error', (error) =>
      failAll(new EngineError('Language detection thread failed', 'detection', { cause: error })),
    );
    worker.on('exit', (code) =>
      failAll(new EngineError(`Language detection thread stopped (exit code ${code})`, 'detection')),
    );
  });
  return started;
}

/** Stops the thread (the next call starts a new one). */
export async function closeLanguageDetector(): Promise<void> {
  const worker = thread;
  started = undefined;
  thread = undefined;
  await worker?.terminate();
}
