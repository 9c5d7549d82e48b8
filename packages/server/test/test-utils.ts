/** Small helpers tests of several packages share (no server, nothing started). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A deterministic pseudo-random generator (mulberry32): the same seed gives the same inputs, so a failure can be replayed. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let gc: (() => void) | undefined;

/** The process's memory after two full garbage collections (`gc` exposed at run time), to measure what is held. */
export function memoryAfterGc(): NodeJS.MemoryUsage {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage();
}
