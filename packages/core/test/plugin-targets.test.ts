import { describe, expect, it } from 'vitest';
import { targetsByKey } from '../src/index.js';

const segments = [
  { key: 'a', source: 'One' },
  { key: 'b', source: 'Two' },
];

describe('targetsByKey', () => {
  it('maps an array of targets to segment keys, leaving out undefined ones', () => {
    expect(targetsByKey(segments, ['Uno', undefined], 'testPlugin')).toEqual(new Map([['a', 'Uno']]));
  });

  it('passes a map through', () => {
    const map = new Map([['b', 'Dos']]);
    expect(targetsByKey(segments, map, 'testPlugin')).toBe(map);
  });

  it('throws a TypeError naming the caller when the count is off', () => {
    expect(() => targetsByKey(segments, ['Uno'], 'testPlugin')).toThrow(
      new TypeError('testPlugin: translate() must return 2 targets or a Map, got 1'),
    );
  });
});
