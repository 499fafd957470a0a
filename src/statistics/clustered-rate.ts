import { summariseClusters } from './cluster-summary.js';
import { tQuantile } from './t-quantile.js';
import type { ClusterInput, SuiteRate } from './types.js';

/**
 * Suite success rate with cases as the sampling units (cluster-robust CLT interval).
 * Miller (2024), "Adding Error Bars to Evals: A Statistical Approach to Language Model Evaluations",
 * arXiv 2411.00640, §2.2: the attempts of one case are a cluster, so the unit is the case mean s̄ᵢ; with
 * m cases, mean s̄ = Σs̄ᵢ/m and SE = √(Σ(s̄ᵢ − s̄)²/(m(m − 1))). The two-sided (1 − alpha) interval is
 * s̄ ± t_{1−alpha/2, m−1}·SE (Student t with m − 1 df for small m), clipped to [0, 1].
 * Needs at least 2 cases. When every case has the same rate the SE is 0 and so is the width.
 */
export function clusteredRate(cases: readonly ClusterInput[], opts: { alpha?: number } = {}): SuiteRate {
  const alpha = opts.alpha ?? 0.05;
  const summary = summariseClusters('clusteredRate', cases, alpha);
  const m = summary.means.length;
  const sumSquares = summary.means.reduce((sum, v) => sum + (v - summary.mean) ** 2, 0);
  const se = Math.sqrt(sumSquares / (m * (m - 1)));
  const halfWidth = tQuantile(1 - alpha / 2, m - 1) * se;
  return {
    mean: summary.mean,
    se,
    lower: Math.max(0, summary.mean - halfWidth),
    upper: Math.min(1, summary.mean + halfWidth),
    method: 'cluster-clt',
    cases: m,
    attempts: summary.attempts,
    designEffect: summary.designEffect,
    icc: summary.icc,
    pooledWilson: summary.pooledWilson,
  };
}
