/**
 * Byte budgets: the LRU by bytes keeps each account within its share (evicting its own entries first),
 * builds that do not fit are refused with 503 and Retry-After, and one account's builds run one at a time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../src/errors.js';
import {
  BUDGET_SHARES,
  BudgetedCache,
  buildingBytes,
  configureMemoryBudget,
  DEFAULT_MEMORY_BUDGET_MB,
  withBuildBudget,
} from '../src/memory-budget.js';

const MIB = 2 ** 20;
const sized = (mib: number) => ({ bytes: mib * MIB });

afterEach(() => configureMemoryBudget(DEFAULT_MEMORY_BUDGET_MB));

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
