import { describe, expect, it } from 'vitest';
import {
  boundedMeanInterval,
  clopperPearson,
  quantileSorted,
  seededRandom,
  unitHistogram,
} from '../../../src/statistics/index.js';

/** Beta(a, b) draws from sums of exponentials (integer shapes), seeded. */
function betaSampler(random: () => number, a: number, b: number): () => number {
  const gamma = (k: number) => {
    let total = 0;
    for (let i = 0; i < k; i += 1) total -= Math.log(1 - random());
    return total;
  };
  return () => {
    const x = gamma(a);
    return x / (x + gamma(b));
  };
}

describe('boundedMeanInterval (hedged betting interval, Waudby-Smith & Ramdas 2024)', () => {
  it('holds the mean, stays in [0, 1] and narrows as attempts accumulate', () => {
    const random = seededRandom(3);
    const draw = betaSampler(random, 4, 2);
    const small = Array.from({ length: 20 }, draw);
    const large = Array.from({ length: 400 }, draw);
    const a = boundedMeanInterval(small);
    const b = boundedMeanInterval(large);
    for (const { mean, lower, upper } of [a, b]) {
      expect(lower).toBeGreaterThanOrEqual(0);
      expect(upper).toBeLessThanOrEqual(1);
      expect(lower).toBeLessThanOrEqual(mean);
      expect(upper).toBeGreaterThanOrEqual(mean);
    }
    expect(b.upper - b.lower).toBeLessThan((a.upper - a.lower) / 3);
    expect(a.confidence).toBe(0.95);
  });

  it('covers the true mean at least 95% of the time for skewed scores at n = 20 (seeded simulation)', () => {
    const random = seededRandom(11);
    for (const [a, b] of [
      [1, 6],
      [8, 1],
      [2, 2],
    ] as const) {
      const truth = a / (a + b);
      const draw = betaSampler(random, a, b);
      let covered = 0;
      const runs = 400;
      for (let run = 0; run < runs; run += 1) {
        const { lower, upper } = boundedMeanInterval(Array.from({ length: 20 }, draw));
        if (lower <= truth && truth <= upper) covered += 1;
      }
      expect(covered / runs).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('is much narrower than Hoeffding on low-variance scores, and within 1.5 times the Clopper–Pearson width on 0/1 scores', () => {
    const random = seededRandom(5);
    const scores = Array.from({ length: 30 }, () => 0.7 + 0.1 * random());
    const { lower, upper } = boundedMeanInterval(scores);
    const hoeffding = Math.sqrt(Math.log(2 / 0.05) / (2 * 30));
    expect(upper - lower).toBeLessThan(hoeffding);
    const binary = Array.from({ length: 30 }, (_, i) => (i % 5 === 4 ? 0 : 1));
    const bet = boundedMeanInterval(binary);
    const cp = clopperPearson(24, 30, { alpha: 0.05, sided: 'two' });
    expect(bet.upper - bet.lower).toBeLessThan(1.5 * (cp.upper - cp.lower));
  });

  it('reaches 1 for all-perfect scores and 0 for all-zero ones', () => {
    expect(boundedMeanInterval(Array(10).fill(1)).upper).toBe(1);
    expect(boundedMeanInterval(Array(10).fill(1)).lower).toBeGreaterThan(0.6);
    expect(boundedMeanInterval(Array(10).fill(0)).lower).toBe(0);
    const one = boundedMeanInterval([0.4]);
    expect(one.lower).toBeLessThanOrEqual(0.4);
    expect(one.upper).toBeGreaterThanOrEqual(0.4);
  });

  it('refuses an empty list and values outside [0, 1]', () => {
    expect(() => boundedMeanInterval([])).toThrow(/no values/);
    expect(() => boundedMeanInterval([0.5, 1.2])).toThrow(/1.2 is outside/);
    expect(() => boundedMeanInterval([Number.NaN])).toThrow(/outside/);
  });

  it('handles 100,000 scores quickly enough to run in a report', () => {
    const random = seededRandom(8);
    const values = Array.from({ length: 100_000 }, random);
    const { lower, upper, mean } = boundedMeanInterval(values);
    expect(upper - lower).toBeLessThan(0.02);
    expect(mean).toBeGreaterThan(lower);
  });
});

describe('score quantiles and histogram', () => {
  it('interpolates quantiles (type 7) and bins [0, 1] in tenths with 1 in the last bin', () => {
    const sorted = [0, 0.1, 0.5, 0.9, 1];
    expect(quantileSorted(sorted, 0)).toBe(0);
    expect(quantileSorted(sorted, 0.5)).toBe(0.5);
    expect(quantileSorted(sorted, 0.25)).toBeCloseTo(0.1, 12);
    expect(quantileSorted([0.2, 0.4], 0.5)).toBeCloseTo(0.3, 12);
    expect(unitHistogram([0, 0.05, 0.1, 0.95, 1, 0.999], 10)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 3]);
  });
});
