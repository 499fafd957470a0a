import { solveLowerBetaTail } from './beta-quantile.js';
import { assertOpenUnit, assertPositive } from './validate.js';

/**
 * Quantile of Student's t distribution with `df` degrees of freedom (df > 0, not necessarily integer).
 *
 * Uses the exact relation to the incomplete beta function (Abramowitz & Stegun 26.7.1 / 26.5.27):
 * for t > 0, P(|T| > t) = I_{df/(df+t²)}(df/2, ½). Solving for x = df/(df + t²) by bisection on the
 * regularized incomplete beta gives t = √(df(1 − x)/x); near the centre the complementary form
 * I_{t²/(df+t²)}(½, df/2) = 1 − P(|T| > t) is solved instead so that small t keeps its precision.
 */
export function tQuantile(p: number, df: number): number {
  assertOpenUnit('tQuantile', 'p', p);
  assertPositive('tQuantile', 'df', df);
  if (p === 0.5) return 0;
  const twoTail = 2 * Math.min(p, 1 - p);
  let t: number;
  if (twoTail < 0.5) {
    const x = solveLowerBetaTail(twoTail, df / 2, 0.5);
    t = Math.sqrt((df * (1 - x)) / x);
  } else {
    const y = solveLowerBetaTail(1 - twoTail, 0.5, df / 2);
    t = Math.sqrt((df * y) / (1 - y));
  }
  return p < 0.5 ? -t : t;
}
