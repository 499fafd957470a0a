import type { Bounds } from './types.js';
import { assertCounts, assertOpenUnit } from './validate.js';
import { wilson } from './wilson.js';

/**
 * Interval for the difference of two independent proportions x1/n1 − x2/n2 by Newcombe's hybrid score method
 * (Newcombe 1998, "Interval estimation for the difference between independent proportions: comparison of eleven
 * methods", Statistics in Medicine 17:873–890, method 10): with each proportion's two-sided Wilson interval
 * [lᵢ, uᵢ] at the same level and d = p̂1 − p̂2,
 *   L = d − √((p̂1 − l1)² + (u2 − p̂2)²),   U = d + √((u1 − p̂1)² + (p̂2 − l2)²).
 * It stays inside [−1, 1], has positive width even at 0/n or n/n, and its coverage is close to nominal down to a
 * handful of attempts per side, unlike the Wald interval on point rates. Both n must be ≥ 1.
 */
export function newcombeDifference(x1: number, n1: number, x2: number, n2: number, alpha = 0.05): Bounds {
  assertCounts('newcombeDifference', x1, n1);
  assertCounts('newcombeDifference', x2, n2);
  assertOpenUnit('newcombeDifference', 'alpha', alpha);
  if (n1 === 0 || n2 === 0) throw new RangeError('newcombeDifference: each side needs at least one attempt');
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const a = wilson(x1, n1, { alpha, sided: 'two' });
  const b = wilson(x2, n2, { alpha, sided: 'two' });
  const d = p1 - p2;
  return {
    lower: Math.max(-1, d - Math.hypot(p1 - a.lower, b.upper - p2)),
    upper: Math.min(1, d + Math.hypot(a.upper - p1, p2 - b.lower)),
  };
}
