import type { Bounds, ClusterInput } from './types.js';
import { assertInteger, assertOpenUnit } from './validate.js';
import { wilson } from './wilson.js';

/** What every suite-rate method shares: the case means and the clustering diagnostics. */
export interface ClusterSummary {
  /** Success rate of each case, in input order. */
  means: number[];
  /** Unweighted mean of the case rates. */
  mean: number;
  attempts: number;
  icc: number;
  designEffect: number;
  pooledWilson: Bounds;
}

/**
 * ANOVA estimator of the intraclass correlation for binary outcomes in clusters of unequal size
 * (Fleiss 1981, "Statistical Methods for Rates and Proportions", §13; Ridout, Demétrio & Firth 1999,
 * Biometrics 55:137–148): with N attempts in m cases,
 *   MSB = (Σ xᵢ²/nᵢ − (Σxᵢ)²/N)/(m − 1),  MSW = (Σxᵢ − Σ xᵢ²/nᵢ)/(N − m),
 *   n₀ = (N − Σnᵢ²/N)/(m − 1),  ICC = (MSB − MSW)/(MSB + (n₀ − 1)·MSW),
 * and the Kish (1965, "Survey Sampling") design effect 1 + (n₀ − 1)·ICC. The ICC is taken as 0 when it
 * is not estimable (one attempt per case, or no variation at all); the design effect is then 1.
 */
function intraclassCorrelation(
  cases: readonly ClusterInput[],
  attempts: number,
): { icc: number; designEffect: number } {
  const m = cases.length;
  let successes = 0;
  let sumSquaredOverSize = 0;
  let sumSizeSquared = 0;
  for (const { successes: x, attempts: size } of cases) {
    successes += x;
    sumSquaredOverSize += (x * x) / size;
    sumSizeSquared += size * size;
  }
  if (attempts === m) return { icc: 0, designEffect: 1 };
  const msb = (sumSquaredOverSize - (successes * successes) / attempts) / (m - 1);
  const msw = (successes - sumSquaredOverSize) / (attempts - m);
  const n0 = (attempts - sumSizeSquared / attempts) / (m - 1);
  const denominator = msb + (n0 - 1) * msw;
  const icc = denominator > 0 ? (msb - msw) / denominator : 0;
  return { icc, designEffect: 1 + (n0 - 1) * icc };
}

/**
 * Validates the cases (at least 2; each with attempts ≥ 1 and 0 ≤ successes ≤ attempts) and computes the
 * case means, the clustering diagnostics and, for comparison, the Wilson interval that pools all attempts.
 */
export function summariseClusters(where: string, cases: readonly ClusterInput[], alpha: number): ClusterSummary {
  assertOpenUnit(where, 'alpha', alpha);
  if (cases.length < 2) {
    throw new RangeError(`${where}: needs at least 2 cases to estimate a between-case spread (got ${cases.length})`);
  }
  let attempts = 0;
  let successes = 0;
  const means = cases.map((c, i) => {
    assertInteger(where, `cases[${i}].attempts`, c.attempts, 1);
    assertInteger(where, `cases[${i}].successes`, c.successes, 0, c.attempts);
    attempts += c.attempts;
    successes += c.successes;
    return c.successes / c.attempts;
  });
  const mean = means.reduce((sum, v) => sum + v, 0) / means.length;
  const { lower, upper } = wilson(successes, attempts, { alpha });
  return { means, mean, attempts, ...intraclassCorrelation(cases, attempts), pooledWilson: { lower, upper } };
}
