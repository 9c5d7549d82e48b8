/**
 * Heavy work runs at a lower CPU priority than the event loop that answers every request (issue 31: one
 * account cannot slow the others). On a machine with few cores, a worker thread parsing a 10 MiB glossary or
 * evaluating the longest quality segments competes with the main thread for a core; the scheduler (Linux's
 * CFS) gives a thread of niceness +10 about a tenth of the share of one at 0 when both want the core, and the
 * whole core when the main thread is idle, so heavy work still uses every idle cycle.
 *
 * A worker thread lowers its own priority (`lowerThreadPriority`, first thing in the thread: Linux's
 * `setpriority` applies to one thread given its thread id, which `/proc/thread-self` names); a thread started
 * from a string runs `LOWER_THREAD_PRIORITY_SOURCE`. A helper process serving heavy work gets
 * `lowerProcessPriority`. Elsewhere (another OS, a container that refuses it) nothing changes.
 */
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';

/** How much lower than the event loop's: Unix niceness added, at most 19. */
export const BACKGROUND_NICENESS = 10;

/** The statement that lowers the calling thread's priority, for a thread started from a string (`eval: true`). */
export const LOWER_THREAD_PRIORITY_SOURCE = `try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  const os = require('node:os');
  os.setPriority(tid, Math.min(19, os.getPriority(tid) + ${BACKGROUND_NICENESS}));
} catch {}`;

const lower = new Function('require', LOWER_THREAD_PRIORITY_SOURCE) as (require: NodeJS.Require) => void;

/** Lowers the calling thread's CPU priority by `BACKGROUND_NICENESS` (Linux; elsewhere nothing). */
export function lowerThreadPriority(): void {
  lower(createRequire(import.meta.url));
}

/** Lowers a helper process's CPU priority by `BACKGROUND_NICENESS` (where the OS lets it). */
export function lowerProcessPriority(pid: number): void {
  try {
    setPriority(pid, Math.min(19, getPriority(pid) + BACKGROUND_NICENESS));
  } catch {}
}
