import { solveLowerBetaTail } from './beta-quantile.js';
import { resolveIntervalOptions } from './interval-options.js';
import type { Interval, IntervalOptions } from './types.js';

/**
 * Jeffreys interval: equal-tailed quantiles of the posterior Beta(x + ½, n − x + ½) under the Jeffreys
 * prior Beta(½, ½), with L = 0 at x = 0 and U = 1 at x = n.
 * Brown, Cai & DasGupta (2001), Statistical Science 16:101–133, §4.1.2. Descriptive, not for verdicts:
 * its one-sided error can exceed the nominal level. n = 0 gives [0, 1].
 */
export function jeffreys(x: number, n: number, opts?: IntervalOptions): Interval {
  const { alpha, sided, tail } = resolveIntervalOptions('jeffreys', x, n, opts);
  const a = x + 0.5;
  const b = n - x + 0.5;
  const lower = x === 0 ? 0 : solveLowerBetaTail(tail, a, b);
  const upper = x === n ? 1 : 1 - solveLowerBetaTail(tail, b, a);
  return { lower, upper, method: 'jeffreys', confidence: 1 - alpha, sided };
}
