import { clopperPearson } from './clopper-pearson.js';
import type { Bounds, IntervalOptions } from './types.js';
import { assertInteger } from './validate.js';

/**
 * Interval for pass@k = 1 − (1 − p)^k, the chance that at least one of k independent attempts succeeds:
 * the exact Clopper–Pearson interval [L, U] for p from c successes in n attempts, mapped through the
 * increasing function p ↦ 1 − (1 − p)^k, so it keeps CP's coverage. Any k ≥ 1 (k may exceed n).
 */
export function passAtKInterval(c: number, n: number, k: number, opts?: IntervalOptions): Bounds {
  assertInteger('passAtKInterval', 'k', k, 1);
  const { lower, upper } = clopperPearson(c, n, opts);
  const passAtLeastOnce = (p: number): number => -Math.expm1(k * Math.log1p(-p));
  return { lower: passAtLeastOnce(lower), upper: passAtLeastOnce(upper) };
}

/**
 * Interval for pass^k = p^k, the chance that all k independent attempts succeed: the exact
 * Clopper–Pearson interval [L, U] for p mapped through the increasing function p ↦ p^k.
 */
export function passHatKInterval(c: number, n: number, k: number, opts?: IntervalOptions): Bounds {
  assertInteger('passHatKInterval', 'k', k, 1);
  const { lower, upper } = clopperPearson(c, n, opts);
  return { lower: lower ** k, upper: upper ** k };
}
