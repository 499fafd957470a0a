import { tQuantile } from './t-quantile.js';
import type { PairedDifference } from './types.js';
import { assertOpenUnit } from './validate.js';

/**
 * Paired comparison of two runs (or subjects) measured on the same cases: dᵢ = aᵢ − bᵢ, mean d̄,
 * SE = √(Var(d)/m) with the sample variance (m − 1 divisor), and the two-sided (1 − alpha) interval
 * d̄ ± t_{1−alpha/2, m−1}·SE (paired t; Student 1908). Miller (2024), arXiv 2411.00640, §4: pairing removes
 * the between-case variance. Inputs are per-case scores (e.g. case success rates), at least 2 pairs.
 */
export function pairedDifference(
  a: readonly number[],
  b: readonly number[],
  opts: { alpha?: number } = {},
): PairedDifference {
  const alpha = opts.alpha ?? 0.05;
  assertOpenUnit('pairedDifference', 'alpha', alpha);
  if (a.length !== b.length) {
    throw new RangeError(
      `pairedDifference: a and b must pair up case by case (got ${a.length} and ${b.length} values)`,
    );
  }
  if (a.length < 2) throw new RangeError(`pairedDifference: needs at least 2 pairs (got ${a.length})`);
  const differences = a.map((value, i) => {
    const other = b[i] ?? Number.NaN;
    if (!Number.isFinite(value) || !Number.isFinite(other)) {
      throw new RangeError(
        `pairedDifference: pair ${i} is not two finite numbers (got ${String(value)}, ${String(other)})`,
      );
    }
    return value - other;
  });
  const m = differences.length;
  const mean = differences.reduce((sum, d) => sum + d, 0) / m;
  const variance = differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (m - 1);
  const se = Math.sqrt(variance / m);
  const halfWidth = tQuantile(1 - alpha / 2, m - 1) * se;
  return { mean, se, lower: mean - halfWidth, upper: mean + halfWidth, pairs: m };
}
