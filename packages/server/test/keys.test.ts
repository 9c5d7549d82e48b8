import { describe, expect, it } from 'vitest';
import { FREE_KEY_SUFFIX, generateKey } from '../src/keys.js';

describe('generateKey', () => {
  it('never starts a key with "-", which `keys revoke --key KEY` would read as an option', () => {
    // Without the rule, 1 key in 64 starts with "-": 2,000 keys would hold about 31 of them.
    const keys = Array.from({ length: 2000 }, (_, index) => generateKey(index % 2 ? 'paid' : 'free'));
    expect(keys.filter((key) => key.startsWith('-'))).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((key) => key.endsWith(FREE_KEY_SUFFIX))).toHaveLength(1000);
  });
});
