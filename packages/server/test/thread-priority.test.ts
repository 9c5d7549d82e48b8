/**
 * Issue 31: heavy work runs at a lower CPU priority than the event loop (`thread-priority.ts`). A thread
 * lowers its own priority, which Linux keeps per thread: its niceness (the 19th field of
 * /proc/self/task/<tid>/stat) is the event loop's plus BACKGROUND_NICENESS, and the event loop's is unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { parseOnThread } from '../src/glossaries/thread.js';
import { BACKGROUND_NICENESS, LOWER_THREAD_PRIORITY_SOURCE } from '../src/thread-priority.js';

const niceness = (tid: number | string) => {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};
const loop = niceness(process.pid);
const lowered = Math.min(19, loop + BACKGROUND_NICENESS);
/** The process's threads at the lowered niceness. */
const loweredThreads = () =>
  readdirSync('/proc/self/task').filter((tid) => {
    try {
      return niceness(tid) === lowered;
    } catch {
      return false; // ended meanwhile
    }
  });

describe.runIf(process.platform === 'linux')('heavy threads at a lower CPU priority', () => {
  it('a thread started from a string lowers its own priority, not the event loop’s', async () => {
    const worker = new Worker(
      `${LOWER_THREAD_PRIORITY_SOURCE}
       const { parentPort } = require('node:worker_threads');
       parentPort.postMessage(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
       parentPort.once('message', () => process.exit(0));`,
      { eval: true },
    );
    try {
      const tid = await new Promise<string>((resolve) => worker.once('message', resolve));
      expect(niceness(tid)).toBe(lowered);
      expect(niceness(process.pid)).toBe(loop);
    } finally {
      worker.postMessage('stop');
      await worker.terminate();
    }
  });

  it('the glossary thread runs lowered', async () => {
    const before = loweredThreads().length;
    const parsed = await parseOnThread('house\tcasa', 'tsv', { source_lang: 'en', target_lang: 'es' });
    expect(parsed.ok).toBe(true);
    expect(loweredThreads().length).toBe(before + 1);
    expect(niceness(process.pid)).toBe(loop);
  });
});
