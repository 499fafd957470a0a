import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  lnBeta,
  lnGamma,
  normalQuantile,
  regularizedIncompleteBeta,
  tQuantile,
} from '../../../src/statistics/index.js';

/** |got − want| ≤ tol·max(1, |want|). */
function expectClose(got: number, want: number, tol: number, label = ''): void {
  expect(Math.abs(got - want), `${label}: got ${got}, want ${want}`).toBeLessThanOrEqual(
    tol * Math.max(1, Math.abs(want)),
  );
}

// Reference values computed with mpmath at 50–60 significant digits (root of Φ(z) = p, of the t CDF
// through the incomplete beta, of I_x(a, b) = p), printed to 17 significant digits.
const NORMAL: [number, number][] = [
  [1e-300, -37.047096299361199],
  [1e-20, -9.2623400897984076],
  [1e-10, -6.3613409024040562],
  [0.001, -3.0902323061678135],
  [0.01, -2.3263478740408411],
  [0.025, -1.9599639845400542],
  [0.1, -1.2815515655446005],
  [0.3, -0.52440051270804078],
  [0.5, 0],
  [0.6, 0.2533471031357998],
  [0.9, 1.2815515655446005],
  [0.975, 1.9599639845400542],
  [0.999, 3.0902323061678135],
];

const STUDENT_T: [number, number, number][] = [
  [0.975, 1, 12.706204736174705],
  [0.975, 2, 4.3026527297494639],
  [0.975, 3, 3.1824463052837096],
  [0.975, 5, 2.5705818356363155],
  [0.975, 10, 2.2281388519862747],
  [0.975, 29, 2.0452296421327043],
  [0.975, 100, 1.9839715185235523],
  [0.975, 199, 1.9719565442517538],
  [0.975, 1000, 1.9623390808264085],
  [0.995, 4, 4.6040948713499932],
  [1e-8, 3, -479.52506957973828],
  [0.6, 7, 0.26316686135202281],
  [0.95, 0.5, 41.136000092878275],
  [0.9, 2.5, 1.7302509288071766],
  [0.025, 30, -2.0422724563012383],
];

const BETA_QUANTILE: [number, number, number, number][] = [
  [0.025, 3, 18, 0.032070937185463706],
  [0.975, 4, 17, 0.37892682654531394],
  [0.5, 0.5, 0.5, 0.5],
  [1e-10, 2, 5, 0.000002581997786411184],
  [0.999, 50, 3, 0.99627052154323173],
  [0.3, 0.2, 7, 0.00024032522824386827],
];

const INCOMPLETE_BETA: [number, number, number, number][] = [
  [0.2, 2, 3, 0.1808],
  [0.8, 10, 2, 0.3221225472],
  [0.5, 0.5, 0.5, 0.5],
  [0.01, 1, 200, 0.86602032514203805],
  [0.7, 150, 60, 0.31735477714458095],
  [0.999, 3, 0.4, 0.894059720365592],
];

const LN_GAMMA: [number, number][] = [
  [0.1, 2.252712651734206],
  [0.5, 0.57236494292470009],
  [1, 0],
  [1.5, -0.12078223763524522],
  [2, 0],
  [10, 12.80182748008147],
  [20.5, 40.831500974530798],
  [100, 359.1342053695754],
  [1000, 5905.2204232091812],
  [10001, 82108.927836814353],
];

describe('normalQuantile (Wichura 1988, AS 241)', () => {
  it('matches 50-digit references to about 1 part in 10^15 across all three regions', () => {
    for (const [p, z] of NORMAL) expectClose(normalQuantile(p), z, 2e-15, `p=${p}`);
  });

  it('is antisymmetric: Φ⁻¹(1 − p) = −Φ⁻¹(p)', () => {
    for (const p of [0.01, 0.2, 0.4, 0.49]) expect(normalQuantile(1 - p)).toBeCloseTo(-normalQuantile(p), 13);
  });

  it('rejects p outside (0, 1)', () => {
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});

describe('tQuantile', () => {
  it('matches 50-digit references (incomplete-beta form of the t CDF, A&S 26.7.1)', () => {
    for (const [p, df, t] of STUDENT_T) expectClose(tQuantile(p, df), t, 1e-13, `p=${p}, df=${df}`);
  });

  it('matches the closed forms for 1 df (Cauchy) and 2 df', () => {
    for (const p of [0.001, 0.1, 0.3, 0.7, 0.975]) {
      expectClose(tQuantile(p, 1), Math.tan(Math.PI * (p - 0.5)), 1e-13, `df=1, p=${p}`);
      expectClose(tQuantile(p, 2), (2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 1e-13, `df=2, p=${p}`);
    }
  });

  it('approaches the normal quantile as df grows', () => {
    expect(tQuantile(0.975, 1e7)).toBeCloseTo(normalQuantile(0.975), 6);
  });

  it('rejects bad arguments', () => {
    expect(() => tQuantile(0, 3)).toThrow(RangeError);
    expect(() => tQuantile(0.5, 0)).toThrow(/df must be a finite number > 0/);
  });
});

describe('betaQuantile and regularizedIncompleteBeta', () => {
  it('I_x(a, b) matches 50-digit references', () => {
    for (const [x, a, b, want] of INCOMPLETE_BETA) {
      expectClose(regularizedIncompleteBeta(x, a, b), want, 1e-14, `I_${x}(${a}, ${b})`);
    }
  });

  it('I_x(a, b) has its exact special cases: I_x(1, b) = 1 − (1 − x)^b, I_x(a, 1) = x^a, ends 0 and 1', () => {
    for (const x of [0.01, 0.3, 0.9]) {
      expectClose(regularizedIncompleteBeta(x, 1, 7), 1 - (1 - x) ** 7, 1e-15);
      expectClose(regularizedIncompleteBeta(x, 4.5, 1), x ** 4.5, 1e-15);
    }
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });

  it('betaQuantile matches 50-digit references and inverts I_x', () => {
    for (const [p, a, b, want] of BETA_QUANTILE) {
      expectClose(betaQuantile(p, a, b), want, 1e-14, `BetaInv(${p}; ${a}, ${b})`);
      expectClose(regularizedIncompleteBeta(betaQuantile(p, a, b), a, b), p, 1e-13, `round trip ${p}`);
    }
    expect(betaQuantile(0, 2, 3)).toBe(0);
    expect(betaQuantile(1, 2, 3)).toBe(1);
  });

  it('rejects bad arguments', () => {
    expect(() => regularizedIncompleteBeta(1.5, 1, 1)).toThrow(/x must be a number in \[0, 1\]/);
    expect(() => regularizedIncompleteBeta(0.5, 0, 1)).toThrow(/a must be a finite number > 0/);
    expect(() => betaQuantile(0.5, 1, -1)).toThrow(RangeError);
  });
});

describe('lnGamma and lnBeta (Lanczos 1964)', () => {
  it('matches 50-digit references with relative error below 1e-14', () => {
    for (const [x, want] of LN_GAMMA) expectClose(lnGamma(x), want, 1e-14, `lnGamma(${x})`);
  });

  it('lnBeta(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b); B(½, ½) = π', () => {
    expectClose(lnBeta(0.5, 0.5), Math.log(Math.PI), 1e-15);
    expectClose(lnBeta(3, 4), Math.log(1 / 60), 1e-14);
  });

  it('rejects x <= 0', () => {
    expect(() => lnGamma(0)).toThrow(RangeError);
  });
});
