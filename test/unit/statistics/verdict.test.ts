import { describe, expect, it } from 'vitest';
import {
  attemptsToCertify,
  attemptsToSettle,
  binomialVerdict,
  clopperPearson,
  stoppingDecision,
  TIE_TOLERANCE,
} from '../../../src/statistics/index.js';

/** PASS/FAIL/inconclusive straight from the one-sided CP bounds, as STATISTICS.md defines them. */
function verdictFromBounds(x: number, n: number, threshold: number, alpha = 0.05): 'pass' | 'fail' | 'inconclusive' {
  const { lower, upper } = clopperPearson(x, n, { alpha, sided: 'one' });
  if (lower >= threshold) return 'pass';
  if (upper < threshold) return 'fail';
  return 'inconclusive';
}

const EXAMPLES = [
  { threshold: 0.8, n: 20, passFrom: 20, failUpTo: 12 },
  { threshold: 0.8, n: 50, passFrom: 45, failUpTo: 34 },
  { threshold: 0.5, n: 20, passFrom: 15, failUpTo: 5 },
];

describe('arm verdicts by one-sided 95% Clopper–Pearson (STATISTICS.md, "Deciding an arm")', () => {
  for (const { threshold, n, passFrom, failUpTo } of EXAMPLES) {
    it(`τ=${threshold}, n=${n}: PASS iff x >= ${passFrom}, FAIL iff x <= ${failUpTo}`, () => {
      for (let x = 0; x <= n; x++) {
        const want = x >= passFrom ? 'pass' : x <= failUpTo ? 'fail' : 'inconclusive';
        expect(verdictFromBounds(x, n, threshold), `x=${x} from CP bounds`).toBe(want);
        expect(stoppingDecision({ kind: 'fixed', n, threshold, alpha: 0.05 }, x, n), `x=${x} fixed rule`).toBe(want);
      }
    });
  }

  it('the fixed rule agrees with the CP bounds for every x, n <= 60 and several thresholds', () => {
    for (const threshold of [0.3, 0.5, 0.7, 0.8, 0.9, 0.95]) {
      for (let n = 1; n <= 60; n++) {
        for (let x = 0; x <= n; x++) {
          expect(stoppingDecision({ kind: 'fixed', n, threshold, alpha: 0.05 }, x, n)).toBe(
            verdictFromBounds(x, n, threshold),
          );
        }
      }
    }
  });
});

describe('an exact tie at the bound is decided one way everywhere (tolerance TIE_TOLERANCE)', () => {
  it('τ = .05, α = .05, 1 of 1: L = α = τ exactly, so PASS by the verdict, the stopping rule and attemptsToCertify', () => {
    expect(TIE_TOLERANCE).toBe(1e-9);
    expect(clopperPearson(1, 1, { alpha: 0.05, sided: 'one' }).lower).toBeCloseTo(0.05, 12);
    expect(binomialVerdict(1, 1, 0.05, 0.05)).toBe('pass');
    expect(stoppingDecision({ kind: 'fixed', n: 1, threshold: 0.05, alpha: 0.05 }, 1, 1)).toBe('pass');
    expect(attemptsToCertify(0.05, 0.05)).toBe(1);
    expect(attemptsToSettle(0, 0, 0.05, 0.05).toPass).toBe(1);
  });
  it('τ = .5, α = .125, 3 of 3 (L = .5 exactly) is PASS; 2 of 2 is not', () => {
    expect(binomialVerdict(3, 3, 0.5, 0.125)).toBe('pass');
    expect(binomialVerdict(2, 2, 0.5, 0.125)).toBe('inconclusive');
  });
  it('an upper bound equal to τ is not below it: 0 of 1 at τ = .95, α = .05 (U = .95) is not FAIL', () => {
    expect(clopperPearson(0, 1, { alpha: 0.05, sided: 'one' }).upper).toBeCloseTo(0.95, 12);
    expect(binomialVerdict(0, 1, 0.95, 0.05)).toBe('inconclusive');
    expect(binomialVerdict(0, 1, 0.951, 0.05)).toBe('fail');
  });
});

describe('attemptsToCertify', () => {
  it('STATISTICS.md: τ=.8 → 14, τ=.9 → 29, τ=.95 → 59 all-pass attempts at α=.05', () => {
    expect(attemptsToCertify(0.8)).toBe(14);
    expect(attemptsToCertify(0.9)).toBe(29);
    expect(attemptsToCertify(0.95)).toBe(59);
  });

  it('is the smallest all-pass n whose one-sided CP lower bound clears τ', () => {
    for (const threshold of [0.2, 0.5, 0.55, 0.8, 0.9, 0.97]) {
      for (const alpha of [0.01, 0.05, 0.1]) {
        const n = attemptsToCertify(threshold, alpha);
        expect(clopperPearson(n, n, { alpha, sided: 'one' }).lower).toBeGreaterThanOrEqual(threshold);
        if (n > 1) expect(clopperPearson(n - 1, n - 1, { alpha, sided: 'one' }).lower).toBeLessThan(threshold);
      }
    }
  });

  it('with n = 5 nothing above ≈ .55 can be certified (STATISTICS.md)', () => {
    expect(attemptsToCertify(0.54)).toBeLessThanOrEqual(5);
    expect(attemptsToCertify(0.55)).toBeGreaterThan(5);
  });

  it('does not round an exact ratio up: τ = α^(1/k) needs exactly k attempts', () => {
    expect(attemptsToCertify(0.5, 0.125)).toBe(3);
    expect(attemptsToCertify(0.25, 0.0625)).toBe(2);
  });

  it('rejects thresholds outside (0, 1)', () => {
    expect(() => attemptsToCertify(1)).toThrow(/threshold must be a number strictly between 0 and 1/);
    expect(() => attemptsToCertify(0.8, 0)).toThrow(RangeError);
  });
});

describe('attemptsToSettle', () => {
  /** Brute force with the CP bounds themselves. */
  function bruteForce(x: number, n: number, threshold: number): { toPass: number | null; toFail: number | null } {
    let toPass: number | null = null;
    let toFail: number | null = null;
    for (let m = 0; m <= 400 && (toPass === null || toFail === null); m++) {
      if (toPass === null && clopperPearson(x + m, n + m, { sided: 'one' }).lower >= threshold) toPass = m;
      if (toFail === null && clopperPearson(x, n + m, { sided: 'one' }).upper < threshold) toFail = m;
    }
    return { toPass, toFail };
  }

  it('matches a brute-force search over the CP bounds', () => {
    for (const threshold of [0.5, 0.8, 0.9]) {
      for (const [x, n] of [
        [0, 0],
        [3, 5],
        [5, 5],
        [12, 20],
        [18, 20],
        [20, 20],
        [40, 50],
        [45, 50],
        [0, 10],
      ] as const) {
        expect(attemptsToSettle(x, n, threshold), `${x}/${n} vs ${threshold}`).toEqual(bruteForce(x, n, threshold));
      }
    }
  });

  it('is 0 for a verdict already reached', () => {
    expect(attemptsToSettle(20, 20, 0.8).toPass).toBe(0);
    expect(attemptsToSettle(12, 20, 0.8).toFail).toBe(0);
  });

  it('from nothing, toPass equals attemptsToCertify', () => {
    for (const threshold of [0.8, 0.9, 0.95])
      expect(attemptsToSettle(0, 0, threshold).toPass).toBe(attemptsToCertify(threshold));
  });

  it('returns null beyond 100,000 additional attempts', () => {
    expect(attemptsToSettle(0, 0, 0.99999)).toEqual({ toPass: null, toFail: 1 });
    expect(attemptsToSettle(10, 10, 0.99999).toPass).toBeNull();
    expect(attemptsToSettle(1000, 1000, 0.00001).toFail).toBeNull();
  });

  it('rejects bad counts', () => {
    expect(() => attemptsToSettle(6, 5, 0.8)).toThrow(/x must be an integer in \[0, 5\]/);
    expect(() => attemptsToSettle(1, 5, 1.5)).toThrow(RangeError);
  });
});
