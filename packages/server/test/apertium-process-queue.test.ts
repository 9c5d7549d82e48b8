/**
 * The Apertium process's answer matching is linear in the segments queued and the output read (issue 31):
 * its waiters are a queue with a head index (`FifoQueue`) and only new output is scanned for the NUL that
 * ends an answer. The pipeline here is `cat` (a fake: it echoes each segment, marker included, as a
 * pipeline in null-flush mode answers it), so that 100,000 segments and a 2 MB answer split over many
 * reads go through the real process machinery. Timings are in `pnpm bench:growth`.
 */
import { describe, expect, it } from 'vitest';
import { ApertiumProcess, FifoQueue } from '../src/engines/apertium-process.js';

describe('FifoQueue', () => {
  it('gives items back first in, first out across compactions, holding at most about twice those waiting', () => {
    const queue = new FifoQueue<number>();
    let pushed = 0;
    let shifted = 0;
    let maxCapacityOverWaiting = 0;
    const wrong: string[] = [];
    for (let round = 0; round < 200; round++) {
      for (let k = 0; k < 1_000 + (round % 7) * 300; k++) queue.push(pushed++);
      const take = round % 3 === 2 ? queue.length : Math.floor(queue.length * 0.8);
      for (let k = 0; k < take; k++) {
        const peeked = queue.peek();
        const item = queue.shift();
        if (peeked !== shifted || item !== shifted) wrong.push(`${shifted}: ${peeked}, ${item}`);
        shifted++;
      }
      maxCapacityOverWaiting = Math.max(maxCapacityOverWaiting, queue.capacity - 2 * queue.length);
      if (queue.length !== pushed - shifted) wrong.push(`length ${queue.length} after round ${round}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(maxCapacityOverWaiting).toBeLessThanOrEqual(1_024);
    const rest = queue.drain();
    expect(rest).toEqual(Array.from({ length: pushed - shifted }, (_, k) => shifted + k));
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});

describe('ApertiumProcess answers (fake pipeline: cat echoes each segment)', () => {
  const cat = () =>
    new ApertiumProcess({ command: { name: 'cat', script: 'cat' }, idleMs: 60_000, timeoutMs: 60_000 });

  it('matches 100,000 queued segments to their answers in order', async () => {
    const process_ = cat();
    try {
      const n = 100_000;
      const answers = await Promise.all(
        Array.from({ length: n }, (_, k) => process_.translate(`segment ${k} ${'x'.repeat(k % 50)}`)),
      );
      expect(answers.length).toBe(n);
      const wrong = answers.filter((answer, k) => answer !== `segment ${k} ${'x'.repeat(k % 50)}\n`);
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(process_.status().pending).toBe(0);
    } finally {
      process_.close();
    }
  }, 60_000);

  it('joins an answer read in many chunks, and the answers around it stay whole', async () => {
    const process_ = cat();
    try {
      const large = Array.from({ length: 200_000 }, (_, k) => `w${k}`).join(' ');
      const [before, answer, after] = await Promise.all([
        process_.translate('before'),
        process_.translate(large),
        process_.translate('after'),
      ]);
      expect(before).toBe('before\n');
      expect(answer!.length).toBe(large.length + 1);
      expect(answer).toBe(`${large}\n`);
      expect(after).toBe('after\n');
    } finally {
      process_.close();
    }
  });
});
