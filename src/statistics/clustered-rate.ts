import { summariseClusters } from './cluster-summary.js';
import { betaTails } from './incomplete-beta.js';
import { normalQuantile } from './normal-quantile.js';
import { tQuantile } from './t-quantile.js';
import type { ClusterInput, SuiteRate } from './types.js';

/** Bisection on I_x(a, b) = q to this absolute precision in x: far finer than any rate is reported. */
const QUANTILE_PRECISION = 1e-10;

/** The x with I_x(a, b) = q (a, b > 0 need not be integers), by bisection to `QUANTILE_PRECISION`. */
function betaInverse(q: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  while (hi - lo > QUANTILE_PRECISION) {
    const mid = (lo + hi) / 2;
    if (betaTails(mid, a, b).lower < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Suite success rate with cases as the sampling units, and a boundary-respecting interval that is never of zero
 * width: the Korn–Graubard interval, a Clopper–Pearson interval on the effective sample size.
 *
 * Korn & Graubard (1998), "Confidence intervals for proportions with small expected number of positive counts
 * estimated from survey data", Survey Methodology 24:193–201; evaluated by Dean & Pagano (2015), "Evaluating
 * confidence interval methods for binomial proportions in clustered surveys", J. Survey Stat. Methodol. 3:484–503.
 * The estimate is the mean s̄ of the m case rates s̄ᵢ, its cluster variance v = Σ(s̄ᵢ − s̄)²/(m(m − 1)) (Miller 2024,
 * "Adding Error Bars to Evals", arXiv 2411.00640, §2.2). The effective sample size n* = s̄(1 − s̄)/v (how many
 * independent attempts carry as much information), capped at the N attempts run, is scaled by (z/t_{m−1})² for the
 * few-cases degrees of freedom; with x* = s̄·n*, the bounds are Beta quantiles as in Clopper–Pearson:
 *   L = BetaInv(α/2; x*, n* − x* + 1) (0 when x* = 0),  U = BetaInv(1 − α/2; x* + 1, n* − x*) (1 when x* = n*).
 * When the case rates do not vary (v = 0, e.g. every case scored 1) the spread cannot be estimated, and each case
 * counts as one independent observation: n* = m. The interval stays inside [0, 1] and has positive width.
 * Coverage over 20–200 cases, 1 or 1–10 attempts, p = .5–.95, ICC .1–.3 is checked by a seeded simulation
 * (test/unit/statistics/suite-coverage.test.ts). Needs at least 2 cases.
 */
export function clusteredRate(cases: readonly ClusterInput[], opts: { alpha?: number } = {}): SuiteRate {
  const alpha = opts.alpha ?? 0.05;
  const summary = summariseClusters('clusteredRate', cases, alpha);
  const m = summary.means.length;
  const mean = summary.mean;
  const variance = summary.means.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (m * (m - 1));
  const effective = variance > 0 ? Math.min(summary.attempts, (mean * (1 - mean)) / variance) : m;
  const n = effective * (normalQuantile(1 - alpha / 2) / tQuantile(1 - alpha / 2, m - 1)) ** 2;
  const x = mean * n;
  return {
    mean,
    se: Math.sqrt(variance),
    lower: x <= 0 ? 0 : betaInverse(alpha / 2, x, n - x + 1),
    upper: x >= n ? 1 : betaInverse(1 - alpha / 2, x + 1, n - x),
    method: 'korn-graubard',
    cases: m,
    attempts: summary.attempts,
    effectiveAttempts: n,
    designEffect: summary.designEffect,
    icc: summary.icc,
    pooledWilson: summary.pooledWilson,
  };
}
