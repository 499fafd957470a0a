import { describe, expect, it } from 'vitest';
import {
  atLeastJOfK,
  clopperPearson,
  passAtK,
  passAtKInterval,
  passHatK,
  passHatKInterval,
} from '../../../src/statistics/index.js';

/**
 * Brute force: over every k-subset of n attempts of which the first c succeeded, the share of subsets
 * with at least j successes (the definition the unbiased estimators average).
 */
function bruteForce(c: number, n: number, k: number, j: number): number {
  let hits = 0;
  let total = 0;
  const visit = (start: number, chosen: number, successes: number): void => {
    if (chosen === k) {
      total++;
      if (successes >= j) hits++;
      return;
    }
    for (let i = start; i <= n - (k - chosen); i++) visit(i + 1, chosen + 1, successes + (i < c ? 1 : 0));
  };
  visit(0, 0, 0);
  return hits / total;
}

describe('pass@k (Chen et al. 2021), pass^k (τ-bench 2024), at least j of k', () => {
  it('equal brute-force enumeration over all k-subsets for n <= 15', () => {
    for (let n = 1; n <= 15; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          expect(Math.abs(passAtK(c, n, k) - bruteForce(c, n, k, 1)), `pass@${k} ${c}/${n}`).toBeLessThanOrEqual(1e-12);
          expect(Math.abs(passHatK(c, n, k) - bruteForce(c, n, k, k)), `pass^${k} ${c}/${n}`).toBeLessThanOrEqual(
            1e-12,
          );
          for (let j = 0; j <= k; j++) {
            expect(
              Math.abs(atLeastJOfK(c, n, k, j) - bruteForce(c, n, k, j)),
              `${j} of ${k}, ${c}/${n}`,
            ).toBeLessThanOrEqual(1e-12);
          }
        }
      }
    }
  });

  it('reduce to the success rate at k = 1', () => {
    expect(passAtK(3, 10, 1)).toBeCloseTo(0.3, 15);
    expect(passHatK(3, 10, 1)).toBeCloseTo(0.3, 15);
  });

  it('stay finite and in [0, 1] at n = 1000 (log space, no overflow)', () => {
    for (const c of [0, 1, 10, 500, 990, 999, 1000]) {
      for (const k of [1, 10, 100, 500, 1000]) {
        for (const value of [passAtK(c, 1000, k), passHatK(c, 1000, k), atLeastJOfK(c, 1000, k, Math.ceil(k / 2))]) {
          expect(Number.isFinite(value), `c=${c}, k=${k}`).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }
    }
    expect(atLeastJOfK(500, 1000, 100, 1)).toBeCloseTo(passAtK(500, 1000, 100), 12);
    expect(atLeastJOfK(900, 1000, 100, 100)).toBeCloseTo(passHatK(900, 1000, 100), 12);
    expect(passHatK(900, 1000, 100)).toBeGreaterThan(0);
    expect(passHatK(900, 1000, 100)).toBeLessThan(1e-4);
  });

  it('rejects k outside 1..n and j outside 0..k', () => {
    expect(() => passAtK(3, 10, 11)).toThrow(/k must be an integer in \[1, 10\]/);
    expect(() => passHatK(3, 10, 0)).toThrow(RangeError);
    expect(() => atLeastJOfK(3, 10, 4, 5)).toThrow(/j must be an integer in \[0, 4\]/);
    expect(() => passAtK(0, 0, 1)).toThrow(/n must be an integer >= 1/);
  });
});

describe('passAtKInterval and passHatKInterval (monotone maps of the exact CP interval)', () => {
  it('map the CP bounds through 1 − (1 − p)^k and p^k', () => {
    const cp = clopperPearson(7, 20);
    const atK = passAtKInterval(7, 20, 5);
    const hatK = passHatKInterval(7, 20, 5);
    expect(atK.lower).toBeCloseTo(1 - (1 - cp.lower) ** 5, 14);
    expect(atK.upper).toBeCloseTo(1 - (1 - cp.upper) ** 5, 14);
    expect(hatK.lower).toBeCloseTo(cp.lower ** 5, 14);
    expect(hatK.upper).toBeCloseTo(cp.upper ** 5, 14);
  });

  it('pass options through to the CP interval and keep the edges', () => {
    const oneSided = clopperPearson(20, 20, { sided: 'one', alpha: 0.1 });
    expect(passHatKInterval(20, 20, 3, { sided: 'one', alpha: 0.1 }).lower).toBeCloseTo(oneSided.lower ** 3, 14);
    expect(passAtKInterval(0, 20, 3).lower).toBe(0);
    expect(passHatKInterval(20, 20, 3).upper).toBe(1);
  });

  it('contain the plug-in values 1 − (1 − p̂)^k and p̂^k', () => {
    for (const [c, n, k] of [
      [3, 10, 2],
      [15, 20, 5],
      [40, 50, 10],
      [0, 7, 3],
      [7, 7, 3],
    ] as const) {
      const p = c / n;
      const atK = passAtKInterval(c, n, k);
      const hatK = passHatKInterval(c, n, k);
      expect(1 - (1 - p) ** k).toBeGreaterThanOrEqual(atK.lower);
      expect(1 - (1 - p) ** k).toBeLessThanOrEqual(atK.upper);
      expect(p ** k).toBeGreaterThanOrEqual(hatK.lower);
      expect(p ** k).toBeLessThanOrEqual(hatK.upper);
    }
  });
});
