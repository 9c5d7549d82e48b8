/**
 * Byte budgets: the LRU by bytes keeps each account within its share (evicting its own entries first),
 * builds that do not fit are refused with 503 and Retry-After, and one account's builds run one at a time;
 * heavy work of every kind is admitted under the one ceiling with the process's RSS (here a stand-in), in
 * order, waiting while it does not fit and refused with 503 and Retry-After when it cannot.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../src/errors.js';
import {
  BUDGET_SHARES,
  BudgetedCache,
  buildingBytes,
  configureMemoryBudget,
  DEFAULT_MEMORY_BUDGET_MB,
  LIGHT_WORK_BYTES,
  MAX_WAITING_WORK,
  measureRssWith,
  memoryAdmission,
  onMemoryPressure,
  reserveMemory,
  reserveMemoryPatiently,
  STALLED_MS,
  STALLED_RETRY_AFTER_SECONDS,
  withBuildBudget,
  withMemory,
} from '../src/memory-budget.js';

/**
 * The main heap as the admission's forced collection sees it: its used size (0: never grown, no collection)
 * and V8's `gc`, counted here instead of run.
 */
const heap = vi.hoisted(() => ({ used: 0, collections: 0 }));
vi.mock('node:v8', async (original) => {
  const v8 = await original<typeof import('node:v8')>();
  return {
    ...v8,
    getHeapStatistics: () => ({ ...v8.getHeapStatistics(), used_heap_size: heap.used }),
  };
});
vi.mock('node:vm', async (original) => {
  const vm = await original<typeof import('node:vm')>();
  return {
    ...vm,
    runInNewContext: (code: string) => (code === 'gc' ? () => heap.collections++ : vm.runInNewContext(code)),
  };
});

const MIB = 2 ** 20;
const sized = (mib: number) => ({ bytes: mib * MIB });

/** The RSS the admission reads (the test process's own is no measure of anything here). */
let rss = 0;
beforeEach(() => {
  rss = 0;
  measureRssWith(() => rss);
});
afterEach(() => {
  configureMemoryBudget(DEFAULT_MEMORY_BUDGET_MB);
  measureRssWith(undefined);
});

describe('BudgetedCache', () => {
  it("evicts the adding account's own oldest entries past its share, never another account's", () => {
    configureMemoryBudget(100);
    const cache = new BudgetedCache<{ bytes: number }>('test', 0.4);
    expect(cache.maxBytes).toBe(40 * MIB);
    expect(cache.accountMaxBytes).toBe(40 * MIB * BUDGET_SHARES.account);
    cache.set('b1', 'b', sized(5));
    cache.set('a1', 'a', sized(8));
    cache.set('a2', 'a', sized(8));
    expect(cache.accountBytes('a')).toBe(16 * MIB);
    cache.set('a3', 'a', sized(8));
    expect([cache.get('a1'), cache.get('a2'), cache.get('a3')].map(Boolean)).toEqual([false, true, true]);
    expect(cache.get('b1')).toBeDefined();
    expect(cache.accountBytes('a')).toBe(16 * MIB);
    expect(cache.bytes).toBe(21 * MIB);
  });

  it('does not keep a value larger than an account share, and the process total stays under its share', () => {
    configureMemoryBudget(100);
    const cache = new BudgetedCache<{ bytes: number }>('test', 0.4);
    expect(cache.set('huge', 'a', sized(30))).toBe(false);
    expect(cache.get('huge')).toBeUndefined();
    for (let account = 0; account < 10; account++) cache.set(`k${account}`, `acct${account}`, sized(15));
    expect(cache.bytes).toBeLessThanOrEqual(40 * MIB);
    expect(cache.size).toBe(2);
  });
});

describe('withBuildBudget', () => {
  it('refuses a build larger than the building share with 503 and Retry-After', async () => {
    configureMemoryBudget(100);
    const error = await withBuildBudget('a', 100 * MIB * BUDGET_SHARES.building + 1, async () => 1).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(503);
    expect((error as ServiceError).headers['retry-after']).toBe('60');
  });

  it('refuses with 503 while other builds hold the share; one build at a time per account', async () => {
    configureMemoryBudget(100);
    const share = 100 * MIB * BUDGET_SHARES.building;
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = withBuildBudget('a', share * 0.75, async () => {
      order.push('a1 start');
      await held;
      order.push('a1 end');
    });
    const second = withBuildBudget('a', 1, async () => {
      order.push('a2');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(buildingBytes()).toBe(share * 0.75);
    const other = await withBuildBudget('b', share * 0.5, async () => 'built').catch(
      (caught: unknown) => caught as ServiceError,
    );
    expect((other as ServiceError).status).toBe(503);
    expect((other as ServiceError).headers['retry-after']).toBe('5');
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a1 start', 'a1 end', 'a2']);
    expect(buildingBytes()).toBe(0);
    await expect(withBuildBudget('b', share * 0.5, async () => 'built')).resolves.toBe('built');
  });
});

describe('withMemory: heavy work of every kind under the one ceiling', () => {
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('admits work while the RSS projected with it fits (alone: under 95% of the ceiling; beside other work: under 90%), queues the rest in order, and admits it as memory is given back', async () => {
    configureMemoryBudget(100); // admitted under 90 MiB
    rss = 50 * MIB;
    const order: string[] = [];
    const first = await reserveMemory('first', 30 * MIB);
    // Projected: the larger of the RSS now (50) and the RSS when the work began plus its bytes (80).
    const second = reserveMemory('second', 20 * MIB).then((release) => {
      order.push('second');
      return release;
    });
    const third = reserveMemory('third', 5 * MIB).then((release) => {
      order.push('third');
      return release;
    });
    // Light work is never queued.
    const light = await reserveMemory('light', LIGHT_WORK_BYTES - 1);
    light();
    await settled();
    expect(order).toEqual([]);
    expect(memoryAdmission()).toMatchObject({ running: 1, waiting: 2, bytes: 30 * MIB });
    // The first work grew past what it reserved and kept it: alone, the second needs 85 + 20 > 95.
    rss = 85 * MIB;
    first();
    await settled();
    // Still waiting (the RSS did not come down), and the third waits behind the second.
    expect(order).toEqual([]);
    // Given back: the second alone (60 + 20 under 95), then the third beside it (80 + 5 under 90).
    rss = 60 * MIB;
    await new Promise((resolve) => setTimeout(resolve, 300)); // the next look at the RSS
    expect(order).toEqual(['second', 'third']);
    (await second)();
    (await third)();
    expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
  });

  it('asks the holders of memory to give it back while work waits, and refuses with 503 and Retry-After when none comes in time', async () => {
    configureMemoryBudget(100);
    rss = 95 * MIB;
    let asked = 0;
    const stop = onMemoryPressure(() => asked++);
    try {
      const refused = await withMemory('Work', 10 * MIB, async () => 'ran', 250).catch(
        (caught: unknown) => caught as ServiceError,
      );
      expect(asked).toBe(1);
      expect((refused as ServiceError).status).toBe(503);
      expect((refused as ServiceError).headers['retry-after']).toMatch(/^\d+$/);
      expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
      // Given back (a cache emptied, a thread stopped): the same work runs.
      rss = 40 * MIB;
      await expect(withMemory('Work', 10 * MIB, async () => 'ran', 250)).resolves.toBe('ran');
    } finally {
      stop();
    }
  });

  it('lets waiting work go when its signal is aborted (a job cancelled), and the work behind it moves up', async () => {
    configureMemoryBudget(100);
    rss = 95 * MIB;
    const controller = new AbortController();
    const cancelled = reserveMemory('Cancelled', 10 * MIB, 60_000, controller.signal).catch(
      (caught: unknown) => caught,
    );
    const next = reserveMemory('Next', 10 * MIB, 60_000);
    await settled();
    expect(memoryAdmission().waiting).toBe(2);
    controller.abort(new Error('cancelled'));
    expect(((await cancelled) as Error).message).toBe('cancelled');
    expect(memoryAdmission().waiting).toBe(1);
    rss = 40 * MIB;
    await new Promise((resolve) => setTimeout(resolve, 300));
    (await next)();
    expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
  });

  it('refuses at once work that could never fit, and a glossary build waits for the others like any work', async () => {
    configureMemoryBudget(100);
    const never = await reserveMemory('Huge', 60 * MIB).catch((caught: unknown) => caught as ServiceError);
    expect((never as ServiceError).status).toBe(503);
    expect((never as ServiceError).message).toMatch(/more than this server's memory budget allows/);
    rss = 50 * MIB;
    const other = await reserveMemory('other', 35 * MIB);
    let built = false;
    const build = withBuildBudget('a', 10 * MIB, async () => {
      built = true;
    });
    await settled();
    expect(built).toBe(false);
    other();
    await build;
    expect(built).toBe(true);
  });

  describe('when the RSS stays high with nothing running (memory freed but kept by the allocator)', () => {
    // The module's clock (performance.now) and its timers are the test's: no time passes but the test's.
    beforeEach(() => {
      vi.useFakeTimers({
        toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
      });
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    const outcome = (reservation: Promise<() => void>) => {
      const seen: { release?: () => void; error?: ServiceError } = {};
      reservation.then(
        (release) => {
          seen.release = release;
        },
        (caught: ServiceError) => {
          seen.error = caught;
        },
      );
      return seen;
    };

    it(`refuses at once what cannot fit alone at the RSS that stays, and admits alone the first that can, after ${STALLED_MS} ms of relievers without the RSS falling, not after its whole wait`, async () => {
      configureMemoryBudget(100); // alone under 95 MiB, beside other work under 90
      rss = 88 * MIB;
      let asked = 0;
      const stop = onMemoryPressure(() => asked++);
      // Light work running (its few MiB cannot give memory back): what is admitted beside it needs 90.
      const light = await reserveMemory('light', LIGHT_WORK_BYTES - 1);
      try {
        const tenMinutes = 600_000;
        const never = outcome(reserveMemory('Never', 10 * MIB, tenMinutes)); // 98 > 95
        const alone = outcome(reserveMemory('Alone', 6 * MIB, tenMinutes)); // 94: under 95, over 90
        const behind = outcome(reserveMemory('Behind', 6 * MIB, tenMinutes));
        await vi.advanceTimersByTimeAsync(STALLED_MS - 1000);
        expect([never, alone, behind]).toEqual([{}, {}, {}]);
        expect(memoryAdmission()).toEqual({
          running: 1,
          waiting: 3,
          bytes: LIGHT_WORK_BYTES - 1,
          retrying: 0,
        });
        await vi.advanceTimersByTimeAsync(1000 + 200);
        expect(asked).toBeGreaterThanOrEqual(STALLED_MS / 1000);
        expect(never.error).toBeInstanceOf(ServiceError);
        expect(never.error?.status).toBe(503);
        expect(never.error?.headers['retry-after']).toBe(String(STALLED_RETRY_AFTER_SECONDS));
        expect(alone.release).toBeTypeOf('function');
        // Alone: the next waits while it runs (it could give memory back), then its own count starts.
        expect(behind).toEqual({});
        await vi.advanceTimersByTimeAsync(2 * STALLED_MS);
        expect(behind).toEqual({});
        expect(memoryAdmission()).toMatchObject({ running: 2, waiting: 1, retrying: 0 });
        alone.release?.();
        await vi.advanceTimersByTimeAsync(STALLED_MS - 1000);
        expect(behind).toEqual({});
        await vi.advanceTimersByTimeAsync(1000 + 200);
        expect(behind.release).toBeTypeOf('function');
        behind.release?.();
      } finally {
        light();
        stop();
      }
      expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
    });

    it("a job's reservation refused for memory taken now waits its Retry-After out of the queue and queues again until admitted; aborted, it stops; too large, it is refused at once", async () => {
      configureMemoryBudget(100);
      rss = 92 * MIB;
      const fillers = new AbortController();
      const queued = Array.from({ length: MAX_WAITING_WORK }, () =>
        reserveMemory('Filler', 5 * MIB, 600_000, fillers.signal).catch(() => undefined),
      );
      // The queue is full: refused at once (Retry-After 10), as a request would be; the job waits it out.
      const job = outcome(reserveMemoryPatiently('Job', 6 * MIB, 600_000));
      const cancelled = new AbortController();
      const stopped = outcome(reserveMemoryPatiently('Stopped', 6 * MIB, 600_000, cancelled.signal));
      await vi.advanceTimersByTimeAsync(0);
      expect(memoryAdmission()).toMatchObject({ waiting: MAX_WAITING_WORK, retrying: 2 });
      fillers.abort(new Error('gone'));
      await Promise.all(queued);
      rss = 40 * MIB;
      cancelled.abort(new Error('cancelled'));
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped.error?.message).toBe('cancelled');
      expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 1 });
      await vi.advanceTimersByTimeAsync(9_000);
      expect(job).toEqual({});
      await vi.advanceTimersByTimeAsync(1_000);
      expect(job.release).toBeTypeOf('function');
      job.release?.();
      expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
      // Work larger than the budget ever admits is not retried.
      const huge = outcome(reserveMemoryPatiently('Huge', 60 * MIB, 600_000));
      await vi.advanceTimersByTimeAsync(0);
      expect(huge.error?.message).toMatch(/more than this server's memory budget allows/);
      expect(memoryAdmission().retrying).toBe(0);
    });

    it('forces no collection of the main heap while heavy work runs, nor before the heap grew by 256 MiB, and one once it ended and work still waits', async () => {
      configureMemoryBudget(100);
      heap.used = 200 * MIB; // not grown enough for a forced collection (256 MiB)
      heap.collections = 0;
      rss = 50 * MIB;
      const running = await reserveMemory('Running', 10 * MIB);
      rss = 85 * MIB;
      const waits = outcome(reserveMemory('Waits', 10 * MIB, 600_000)); // beside: 85 + 10 > 90
      await vi.advanceTimersByTimeAsync(5_000);
      expect(waits).toEqual({});
      expect(heap.collections).toBe(0);
      rss = 90 * MIB; // alone: 90 + 10 > 95, it still waits
      running();
      await vi.advanceTimersByTimeAsync(1_200);
      expect(heap.collections).toBe(0);
      heap.used = 300 * MIB; // grown by more: a collection may find garbage
      await vi.advanceTimersByTimeAsync(1_000);
      expect(heap.collections).toBe(1);
      rss = 40 * MIB;
      await vi.advanceTimersByTimeAsync(200);
      waits.release?.();
      expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
      heap.used = 0;
    });

    it('keeps waiting while the RSS falls (the count starts again), and light work running does not hold it', async () => {
      configureMemoryBudget(100);
      rss = 96 * MIB;
      const light = await reserveMemory('light', LIGHT_WORK_BYTES - 1);
      // 102, then 94: under 95 alone, but over 90 beside the light work (whose RSS began at 96).
      const work = outcome(reserveMemory('Work', 6 * MIB, 600_000));
      await vi.advanceTimersByTimeAsync(STALLED_MS - 2000);
      rss = 88 * MIB; // fell by 8 MiB: memory is coming back
      await vi.advanceTimersByTimeAsync(2000 + 200);
      expect(work).toEqual({});
      await vi.advanceTimersByTimeAsync(STALLED_MS);
      expect(work.release).toBeTypeOf('function');
      work.release?.();
      light();
      expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
    });
  });
});
