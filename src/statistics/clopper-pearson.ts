import { AnswersKept } from './answers-kept.js';
import { solveLowerBetaTail } from './beta-quantile.js';
import { resolveIntervalOptions } from './interval-options.js';
import type { Interval, IntervalOptions } from './types.js';

/**
 * Exact (Clopper–Pearson) interval for a binomial proportion from x successes in n attempts.
 *
 * Clopper & Pearson (1934), Biometrika 26:404–413. The bounds are the roots of the binomial tails,
 *   P(X ≥ x | n, L) = tail  and  P(X ≤ x | n, U) = tail,
 * with tail = alpha/2 (two-sided) or alpha (one-sided bounds), L = 0 at x = 0 and U = 1 at x = n.
 * The tails are evaluated through P(X ≥ x | n, p) = I_p(x, n − x + 1) (Abramowitz & Stegun 26.5.24),
 * i.e. L = BetaInv(tail; x, n − x + 1) and 1 − U = BetaInv(tail; n − x, x + 1), each found by bisection
 * on the tail computed in log space. Coverage is at least the nominal level for every p
 * (Brown, Cai & DasGupta 2001). n = 0 gives [0, 1].
 */
export function clopperPearson(x: number, n: number, opts?: IntervalOptions): Interval {
  return intervals.get([x, n, opts?.alpha, opts?.sided], () => exactInterval(x, n, opts));
}
const intervals = new AnswersKept<Interval>();

function exactInterval(x: number, n: number, opts?: IntervalOptions): Interval {
  const { alpha, sided, tail } = resolveIntervalOptions('clopperPearson', x, n, opts);
  const lower = x === 0 ? 0 : solveLowerBetaTail(tail, x, n - x + 1);
  const upper = x === n ? 1 : 1 - solveLowerBetaTail(tail, n - x, x + 1);
  return { lower, upper, method: 'clopper-pearson', confidence: 1 - alpha, sided };
}
