import { describe, expect, it } from 'vitest';
import { seededRandom, shuffle } from '../../../src/statistics/index.js';

describe('seededRandom (mulberry32)', () => {
  it('replays the same stream for the same seed and differs across seeds', () => {
    const draw = (seed: number): number[] => {
      const random = seededRandom(seed);
      return Array.from({ length: 5 }, () => random());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(1)).not.toEqual(draw(1 + 2 ** 32));
    expect(draw(-3)).not.toEqual(draw(3));
  });

  it('is uniform on [0, 1): 100,000 draws pass a chi-square test over 20 bins', () => {
    const random = seededRandom(12345);
    const bins = new Array<number>(20).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const u = random();
      expect(u >= 0 && u < 1).toBe(true);
      bins[Math.floor(u * 20)] = (bins[Math.floor(u * 20)] ?? 0) + 1;
    }
    const expected = 100_000 / 20;
    const chiSquare = bins.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(43.8); // 99.9th percentile of chi-square with 19 df
  });

  it('rejects a seed that is not a safe integer', () => {
    expect(() => seededRandom(1.5)).toThrow(/seed must be an integer/);
    expect(() => seededRandom(Number.NaN)).toThrow(RangeError);
  });
});

describe('shuffle (Fisher–Yates / Durstenfeld)', () => {
  it('returns a new permutation and leaves the input alone', () => {
    const items = Object.freeze(['a', 'b', 'c', 'd', 'e']);
    const shuffled = shuffle(items, seededRandom(3));
    expect([...shuffled].sort()).toEqual([...items]);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(shuffled).not.toBe(items);
    expect(shuffle([], seededRandom(1))).toEqual([]);
  });

  it('is deterministic for a seed', () => {
    expect(shuffle([1, 2, 3, 4, 5, 6, 7, 8], seededRandom(99))).toEqual(
      shuffle([1, 2, 3, 4, 5, 6, 7, 8], seededRandom(99)),
    );
  });

  it('makes all 24 orders of 4 items equally likely (chi-square over 48,000 shuffles)', () => {
    const random = seededRandom(2024);
    const counts = new Map<string, number>();
    for (let i = 0; i < 48_000; i++) {
      const key = shuffle([1, 2, 3, 4], random).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    const chiSquare = [...counts.values()].reduce((sum, c) => sum + (c - 2000) ** 2 / 2000, 0);
    expect(chiSquare).toBeLessThan(49.7); // 99.9th percentile of chi-square with 23 df
  });

  it('rejects a random source outside [0, 1)', () => {
    expect(() => shuffle([1, 2, 3], () => 1)).toThrow(/random\(\) must return a number in \[0, 1\)/);
  });
});
