import { summariseClusters } from './cluster-summary.js';
import { seededRandom } from './seeded-random.js';
import type { ClusterInput, SuiteRate } from './types.js';
import { assertInteger } from './validate.js';

/** Quantile of sorted values by linear interpolation (Hyndman & Fan 1996, type 7). */
function sortedQuantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const low = sorted[below] ?? 0;
  const high = sorted[above] ?? 0;
  return low + (high - low) * (position - below);
}

/**
 * Suite success rate with a case-level (cluster) bootstrap: resample the m cases with replacement,
 * `resamples` times (default 2000), and take the mean of the resampled case rates each time.
 * Efron & Tibshirani (1993), "An Introduction to the Bootstrap", ch. 13 (percentile interval); Field &
 * Welsh (2007), JRSS-B 69:369–390 (resampling clusters); Miller (2024), arXiv 2411.00640, §2.2.
 * `mean` is the observed mean of case rates, `se` the standard deviation of the bootstrap means, and the
 * interval the (alpha/2, 1 − alpha/2) percentiles. Deterministic for a seed (`seededRandom`).
 */
export function clusterBootstrapRate(
  cases: readonly ClusterInput[],
  opts: { seed: number; resamples?: number; alpha?: number },
): SuiteRate {
  const alpha = opts.alpha ?? 0.05;
  const resamples = opts.resamples ?? 2000;
  const summary = summariseClusters('clusterBootstrapRate', cases, alpha);
  assertInteger('clusterBootstrapRate', 'resamples', resamples, 2);
  const random = seededRandom(opts.seed);
  const m = summary.means.length;
  const bootstrapMeans = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < m; i++) sum += summary.means[Math.floor(random() * m)] ?? 0;
    bootstrapMeans[r] = sum / m;
  }
  bootstrapMeans.sort();
  const average = bootstrapMeans.reduce((sum, v) => sum + v, 0) / resamples;
  const variance = bootstrapMeans.reduce((sum, v) => sum + (v - average) ** 2, 0) / (resamples - 1);
  return {
    mean: summary.mean,
    se: Math.sqrt(variance),
    lower: sortedQuantile(bootstrapMeans, alpha / 2),
    upper: sortedQuantile(bootstrapMeans, 1 - alpha / 2),
    method: 'cluster-bootstrap',
    effectiveAttempts: null,
    cases: m,
    attempts: summary.attempts,
    designEffect: summary.designEffect,
    icc: summary.icc,
    pooledWilson: summary.pooledWilson,
  };
}
