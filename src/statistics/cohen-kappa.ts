import { marginals, observedAgreement, ratedByBoth } from './paired-ratings.js';
import type { Rating } from './types.js';

/**
 * Cohen's kappa for two raters on nominal categories (Cohen 1960, "A coefficient of agreement for
 * nominal scales", Educ. Psychol. Meas. 20:37–46): κ = (pₒ − pₑ)/(1 − pₑ) with pₑ = Σ_k p_A(k)·p_B(k)
 * from each rater's own marginals, over the units rated by both. Subject to the prevalence paradox
 * (Feinstein & Cicchetti 1990): low κ despite high agreement when one category dominates.
 * NaN when no unit was rated by both, or when pₑ = 1 (both raters used one and the same category).
 */
export function cohenKappa(a: readonly Rating[], b: readonly Rating[]): number {
  const pairs = ratedByBoth('cohenKappa', a, b);
  if (pairs.length === 0) return Number.NaN;
  const { first, second } = marginals(pairs);
  let chance = 0;
  for (const [category, share] of first) chance += share * (second.get(category) ?? 0);
  if (chance >= 1) return Number.NaN;
  return (observedAgreement(pairs) - chance) / (1 - chance);
}
