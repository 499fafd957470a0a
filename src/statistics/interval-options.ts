import type { IntervalOptions, Sided } from './types.js';
import { assertCounts, assertOpenUnit } from './validate.js';

/** Interval options after defaults, with the error allotted to each tail. */
export interface ResolvedIntervalOptions {
  alpha: number;
  sided: Sided;
  /** alpha/2 for two-sided intervals, alpha for one-sided bounds. */
  tail: number;
}

/**
 * Validates x successes of n attempts and the interval options; applies the defaults alpha = 0.05,
 * sided = 'two'.
 */
export function resolveIntervalOptions(
  where: string,
  x: number,
  n: number,
  opts: IntervalOptions = {},
): ResolvedIntervalOptions {
  assertCounts(where, x, n);
  const alpha = opts.alpha ?? 0.05;
  const sided = opts.sided ?? 'two';
  assertOpenUnit(where, 'alpha', alpha);
  if (sided !== 'two' && sided !== 'one') {
    throw new RangeError(`${where}: sided must be 'two' or 'one' (got ${String(sided)})`);
  }
  return { alpha, sided, tail: sided === 'two' ? alpha / 2 : alpha };
}
