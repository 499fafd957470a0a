import { observedAgreement, ratedByBoth } from './paired-ratings.js';
import type { Rating } from './types.js';

/**
 * Raw (percent) agreement of two raters: the share of units rated by both on which they gave the same
 * rating. Units with a missing rating are left out; NaN when no unit was rated by both.
 * Report it beside the chance-corrected coefficients (Feinstein & Cicchetti 1990).
 */
export function rawAgreement(a: readonly Rating[], b: readonly Rating[]): number {
  const pairs = ratedByBoth('rawAgreement', a, b);
  return pairs.length === 0 ? Number.NaN : observedAgreement(pairs);
}
