import { betaTails } from './incomplete-beta.js';
import { assertClosedUnit, assertPositive } from './validate.js';

/**
 * The x in [0, 1] with I_x(a, b) = q, by bisection until the bracket cannot shrink (adjacent doubles),
 * so the root is found to the precision of I itself. I_x(a, b) is increasing in x. Returns the lower end
 * of the final bracket (the side where I_x(a, b) < q). Arguments are assumed valid.
 */
export function solveLowerBetaTail(q: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) return lo;
    if (betaTails(mid, a, b).lower < q) lo = mid;
    else hi = mid;
  }
}

/**
 * Quantile of the Beta(a, b) distribution: the x with I_x(a, b) = p.
 * Inverts the regularized incomplete beta (Abramowitz & Stegun 26.5.1) by bisection; for p > ½ it solves
 * the upper tail, I_{1−x}(b, a) = 1 − p, so both ends keep their precision.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  assertClosedUnit('betaQuantile', 'p', p);
  assertPositive('betaQuantile', 'a', a);
  assertPositive('betaQuantile', 'b', b);
  if (p === 0) return 0;
  if (p === 1) return 1;
  return p <= 0.5 ? solveLowerBetaTail(p, a, b) : 1 - solveLowerBetaTail(1 - p, b, a);
}
