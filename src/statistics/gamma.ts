/** Log-gamma and log-beta functions, needed in log space so nothing overflows. */
import { assertPositive } from './validate.js';

/** Lanczos coefficients for g = 7, n = 9 (Godfrey's set; relative error below 1e-15 for x > 0). */
const LANCZOS_G = 7;
const LANCZOS_COEFFICIENTS: readonly [number, ...number[]] = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** The Lanczos series A_g(x − 1) = c₀ + Σᵢ cᵢ/(x − 1 + i), for x ≥ ½. */
function lanczosSeries(x: number): number {
  const [first, ...rest] = LANCZOS_COEFFICIENTS;
  return rest.reduce((sum, c, i) => sum + c / (x + i), first);
}

/**
 * ln Γ(x) for x > 0.
 *
 * Lanczos (1964), SIAM J. Numer. Anal. B 1:86–96: Γ(x) = √(2π)·t^(x − ½)·e^(−t)·A_g(x − 1) with
 * t = x + g − ½, using Godfrey's coefficients (g = 7, 9 terms; Numerical Recipes 3rd ed. §6.1), and for
 * x < ½ the reflection Γ(x)Γ(1 − x) = π / sin(πx).
 */
export function lnGamma(x: number): number {
  assertPositive('lnGamma', 'x', x);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const t = x + LANCZOS_G - 0.5;
  return HALF_LOG_TWO_PI + (x - 0.5) * Math.log(t) - t + Math.log(lanczosSeries(x));
}

/**
 * ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b) for a, b > 0 (Abramowitz & Stegun 6.2.2).
 *
 * For a, b ≥ ½ the three Lanczos forms are combined before taking logs, so the large terms cancel
 * analytically instead of in floating point (the approach of Boost.Math's `beta`, after Pugh 2004):
 * with t = a + b + g − ½,
 *   ln B = ½ ln 2π − (g − ½) − ½ ln t + (a − ½)·ln(1 − b/t) + (b − ½)·ln(1 − a/t)
 *          + ln(A_g(a − 1)·A_g(b − 1)/A_g(a + b − 1)).
 */
export function lnBeta(a: number, b: number): number {
  assertPositive('lnBeta', 'a', a);
  assertPositive('lnBeta', 'b', b);
  if (a < 0.5 || b < 0.5) return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
  const t = a + b + LANCZOS_G - 0.5;
  return (
    HALF_LOG_TWO_PI -
    (LANCZOS_G - 0.5) -
    0.5 * Math.log(t) +
    (a - 0.5) * Math.log1p(-b / t) +
    (b - 0.5) * Math.log1p(-a / t) +
    Math.log((lanczosSeries(a) * lanczosSeries(b)) / lanczosSeries(a + b))
  );
}

/** ln C(n, k) for integers 0 ≤ k ≤ n, as −ln(n + 1) − ln B(k + 1, n − k + 1) (A&S 6.2.1, 6.1.21). */
export function lnChoose(n: number, k: number): number {
  return -Math.log(n + 1) - lnBeta(k + 1, n - k + 1);
}
