import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool, type RunSegment } from '../src/index.js';

const task = new URL('./helpers/parse-task.ts', import.meta.url);
const pool = createWorkerPool({ maxThreads: 2 });
afterAll(async () => {
  await pool.destroy();
});

describe('worker pool', () => {
  it('runs an adapter task from any module on a worker thread', async () => {
    const json = JSON.stringify({ greeting: 'Hello {{name}}, <0>welcome</0>!', bye: 'Bye' });
    const segments = await pool.run<RunSegment[]>(task, 'extractCatalog', { file: 'en.json', json });
    expect(segments).toEqual([
      { key: 'en.json#greeting', file: 'en.json', source: 'Hello <x id="1"/>, <g id="2">welcome</g>!' },
      { key: 'en.json#bye', file: 'en.json', source: 'Bye' },
    ]);
  });

  it('runs many tasks in parallel and keeps results with their inputs', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pool.run<RunSegment[]>(task, 'extractCatalog', {
          file: `f${i}.json`,
          json: JSON.stringify({ k: `Text ${i}` }),
        }),
      ),
    );
    expect(results.map((r) => r[0]!.source)).toEqual(Array.from({ length: 20 }, (_, i) => `Text ${i}`));
  });

  it('a throwing task rejects with its error; a missing export is a TypeError message', async () => {
    await expect(pool.run(task, 'fail', null)).rejects.toThrow('adapter failed on purpose');
    await expect(pool.run(task, 'nope', null)).rejects.toThrow("has no exported function 'nope'");
  });

  it('rejects a bad thread count', () => {
    expect(() => createWorkerPool({ maxThreads: 0 })).toThrow(
      'Expected `maxThreads` to be a positive integer, got 0',
    );
  });
});
