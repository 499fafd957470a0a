import { resolveIntervalOptions } from './interval-options.js';
import { normalQuantile } from './normal-quantile.js';
import type { Interval, IntervalOptions } from './types.js';

/**
 * Lower root of the Wilson score quadratic (n + z²)p² − (2x + z²)p + x²/n = 0, computed without
 * cancellation as x²/(n(n + z²)) divided by the upper root (product of the roots).
 */
function wilsonLowerRoot(x: number, n: number, z: number): number {
  if (x === 0) return 0;
  const z2 = z * z;
  const upperRoot = (2 * x + z2 + z * Math.sqrt(z2 + (4 * x * (n - x)) / n)) / (2 * (n + z2));
  return (x * x) / (n * (n + z2) * upperRoot);
}

/**
 * Wilson score interval for a binomial proportion: the p with |p̂ − p| ≤ z·√(p(1 − p)/n), i.e. centre
 * (x + z²/2)/(n + z²) and half-width z·√(p̂(1 − p̂)n + z²/4)/(n + z²), z = Φ⁻¹(1 − tail).
 * Wilson (1927), JASA 22:209–212; Agresti & Coull (1998); Brown, Cai & DasGupta (2001).
 * Good for describing a rate; its one-sided error can exceed the nominal level, so verdicts use
 * Clopper–Pearson. Each bound is the stable root of the score quadratic, and U(x) = 1 − L(n − x).
 * n = 0 gives [0, 1].
 */
export function wilson(x: number, n: number, opts?: IntervalOptions): Interval {
  const { alpha, sided, tail } = resolveIntervalOptions('wilson', x, n, opts);
  if (n === 0) return { lower: 0, upper: 1, method: 'wilson', confidence: 1 - alpha, sided };
  const z = -normalQuantile(tail);
  const lower = wilsonLowerRoot(x, n, z);
  const upper = 1 - wilsonLowerRoot(n - x, n, z);
  return { lower, upper, method: 'wilson', confidence: 1 - alpha, sided };
}
