import { describe, expect, it } from 'vitest';
import { clopperPearson, jeffreys, wilson } from '../../../src/statistics/index.js';
import type { Sided } from '../../../src/statistics/index.js';
import { lowerTailSign, upperTailSign, wilsonScoreSign } from './reference/exact-binomial.js';
import { referenceJeffreys } from './reference/jeffreys-series.js';

const TOLERANCE = 1e-12;
const SMALL_N = Array.from({ length: 50 }, (_, i) => i + 1);
const LARGE_N = [64, 75, 100, 128, 137, 150, 199, 200];
const SETTINGS: { alpha: number; sided: Sided }[] = [
  { alpha: 0.05, sided: 'two' },
  { alpha: 0.05, sided: 'one' },
  { alpha: 0.01, sided: 'two' },
];

/** Every success count 0..n. */
function countsFor(n: number): number[] {
  return Array.from({ length: n + 1 }, (_, x) => x);
}

/** z quantiles from R's qnorm (1 − tail), printed to 17 significant digits. */
const Z_FOR_TAIL = new Map([
  [0.025, 1.959963984540054],
  [0.05, 1.6448536269514722],
  [0.005, 2.5758293035489004],
]);

describe('clopperPearson (Clopper & Pearson 1934) against exact BigInt binomial tails', () => {
  for (const { alpha, sided } of SETTINGS) {
    const tail = sided === 'two' ? alpha / 2 : alpha;
    it(`each bound is within 1e-12 of the exact tail root, n <= 200, alpha=${alpha}, ${sided}-sided`, () => {
      for (const n of [...SMALL_N, ...LARGE_N]) {
        for (const x of countsFor(n)) {
          const { lower, upper } = clopperPearson(x, n, { alpha, sided });
          if (x === 0) expect(lower).toBe(0);
          else {
            // P(X >= x | L) = tail: the exact tail crosses the target inside [L - 1e-12, L + 1e-12].
            expect(upperTailSign(x, n, Math.max(0, lower - TOLERANCE), tail), `L(${x}/${n})`).toBe(-1);
            expect(upperTailSign(x, n, Math.min(1, lower + TOLERANCE), tail), `L(${x}/${n})`).toBe(1);
          }
          if (x === n) expect(upper).toBe(1);
          else {
            expect(lowerTailSign(x, n, Math.max(0, upper - TOLERANCE), tail), `U(${x}/${n})`).toBe(1);
            expect(lowerTailSign(x, n, Math.min(1, upper + TOLERANCE), tail), `U(${x}/${n})`).toBe(-1);
          }
        }
      }
    });
  }

  it('has the closed forms at the edges: L(n/n) = (alpha/2)^(1/n), U(0/n) = 1 - (alpha/2)^(1/n)', () => {
    for (const n of [1, 5, 20, 200]) {
      expect(clopperPearson(n, n).lower).toBeCloseTo(0.025 ** (1 / n), 14);
      expect(clopperPearson(0, n).upper).toBeCloseTo(1 - 0.025 ** (1 / n), 14);
      expect(clopperPearson(n, n, { sided: 'one' }).lower).toBeCloseTo(0.05 ** (1 / n), 14);
    }
  });

  it('is symmetric: U(x, n) = 1 - L(n - x, n)', () => {
    for (const n of [7, 50, 200]) {
      for (const x of countsFor(n)) {
        expect(clopperPearson(x, n).upper).toBeCloseTo(1 - clopperPearson(n - x, n).lower, 14);
      }
    }
  });

  it('records method, confidence and sidedness', () => {
    expect(clopperPearson(3, 10, { alpha: 0.1, sided: 'one' })).toMatchObject({
      method: 'clopper-pearson',
      confidence: 0.9,
      sided: 'one',
    });
  });
});

describe('wilson (Wilson 1927) against the exact score quadratic', () => {
  for (const { alpha, sided } of SETTINGS) {
    const tail = sided === 'two' ? alpha / 2 : alpha;
    const z = Z_FOR_TAIL.get(tail) ?? Number.NaN;
    it(`each bound is within 1e-12 of a root of (x - np)^2 = z^2 n p(1 - p), alpha=${alpha}, ${sided}-sided`, () => {
      for (const n of [...SMALL_N, ...LARGE_N]) {
        for (const x of countsFor(n)) {
          const { lower, upper } = wilson(x, n, { alpha, sided });
          if (x === 0) expect(lower).toBe(0);
          else {
            expect(wilsonScoreSign(x, n, lower - TOLERANCE, z), `L(${x}/${n})`).toBe(1);
            expect(wilsonScoreSign(x, n, lower + TOLERANCE, z), `L(${x}/${n})`).toBe(-1);
          }
          if (x === n) expect(upper).toBe(1);
          else {
            expect(wilsonScoreSign(x, n, upper - TOLERANCE, z), `U(${x}/${n})`).toBe(-1);
            expect(wilsonScoreSign(x, n, upper + TOLERANCE, z), `U(${x}/${n})`).toBe(1);
          }
        }
      }
    });
  }

  it('matches the centre ± half-width form of STATISTICS.md', () => {
    const z = 1.959963984540054;
    for (const [x, n] of [
      [3, 10],
      [17, 20],
      [45, 50],
      [120, 200],
    ] as const) {
      const p = x / n;
      const centre = (x + (z * z) / 2) / (n + z * z);
      const half = (z * Math.sqrt(p * (1 - p) * n + (z * z) / 4)) / (n + z * z);
      expect(wilson(x, n).lower).toBeCloseTo(centre - half, 14);
      expect(wilson(x, n).upper).toBeCloseTo(centre + half, 14);
    }
  });
});

describe('jeffreys (Brown, Cai & DasGupta 2001) against a power-series reference', () => {
  for (const { alpha, sided } of SETTINGS) {
    const tail = sided === 'two' ? alpha / 2 : alpha;
    it(`bounds agree within 1e-12 with Beta(x+½, n−x+½) quantiles by series + bisection, alpha=${alpha}, ${sided}-sided`, () => {
      for (const n of [...SMALL_N, ...LARGE_N]) {
        for (const x of countsFor(n)) {
          const got = jeffreys(x, n, { alpha, sided });
          const want = referenceJeffreys(x, n, tail);
          expect(Math.abs(got.lower - want.lower), `L(${x}/${n})`).toBeLessThanOrEqual(TOLERANCE);
          expect(Math.abs(got.upper - want.upper), `U(${x}/${n})`).toBeLessThanOrEqual(TOLERANCE);
        }
      }
    });
  }

  it('uses L = 0 at x = 0 and U = 1 at x = n', () => {
    expect(jeffreys(0, 10).lower).toBe(0);
    expect(jeffreys(10, 10).upper).toBe(1);
    expect(jeffreys(0, 10).upper).toBeGreaterThan(0);
  });
});

describe('interval edge cases and input checks', () => {
  const methods = { clopperPearson, wilson, jeffreys };

  for (const [name, interval] of Object.entries(methods)) {
    it(`${name}: n = 0 gives [0, 1]`, () => {
      expect(interval(0, 0)).toMatchObject({ lower: 0, upper: 1 });
    });

    it(`${name}: 0/n and n/n are clamped at the boundary and stay inside [0, 1]`, () => {
      for (const n of [1, 10, 200, 10_000]) {
        const none = interval(0, n);
        const all = interval(n, n);
        expect(none.lower).toBe(0);
        expect(all.upper).toBe(1);
        expect(none.upper).toBeGreaterThan(0);
        expect(none.upper).toBeLessThan(1);
        expect(all.lower).toBeGreaterThan(0);
        expect(all.lower).toBeLessThan(1);
      }
    });

    it(`${name}: works up to n = 10,000 and agrees with the other methods there`, () => {
      for (const x of [1, 37, 2500, 5000, 9990, 9999]) {
        const got = interval(x, 10_000);
        const reference = wilson(x, 10_000);
        expect(got.lower).toBeLessThanOrEqual(x / 10_000);
        expect(got.upper).toBeGreaterThanOrEqual(x / 10_000);
        expect(Math.abs(got.lower - reference.lower)).toBeLessThan(1e-3);
        expect(Math.abs(got.upper - reference.upper)).toBeLessThan(1e-3);
      }
    });

    it(`${name}: throws a RangeError that names the problem`, () => {
      expect(() => interval(3, 2)).toThrow(RangeError);
      expect(() => interval(3, 2)).toThrow(/x must be an integer in \[0, 2\]/);
      expect(() => interval(-1, 5)).toThrow(RangeError);
      expect(() => interval(1.5, 5)).toThrow(RangeError);
      expect(() => interval(1, 5.5)).toThrow(/n must be an integer/);
      expect(() => interval(1, 5, { alpha: 0 })).toThrow(/alpha must be a number strictly between 0 and 1/);
      expect(() => interval(1, 5, { alpha: 1.2 })).toThrow(RangeError);
      expect(() => interval(1, 5, { sided: 'left' as Sided })).toThrow(/sided must be 'two' or 'one'/);
    });
  }

  it('CP at n = 10,000 agrees with the normal approximation in the middle', () => {
    const { lower, upper } = clopperPearson(5000, 10_000);
    const half = 1.959963984540054 * Math.sqrt(0.25 / 10_000);
    expect(lower).toBeCloseTo(0.5 - half, 4);
    expect(upper).toBeCloseTo(0.5 + half, 4);
  });
});
