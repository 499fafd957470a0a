import { marginals, observedAgreement, ratedByBoth } from './paired-ratings.js';
import type { Rating } from './types.js';

/**
 * Gwet's AC1 for two raters on nominal categories (Gwet 2008, "Computing inter-rater reliability and
 * its variance in the presence of high agreement", Br. J. Math. Stat. Psychol. 61:29–48, eq. 13–14):
 * AC1 = (pₒ − pₑ)/(1 − pₑ), pₑ = (1/(Q − 1))·Σ_k π_k(1 − π_k), π_k = (p_A(k) + p_B(k))/2, over the units
 * rated by both; for Q = 2 categories pₑ = 2π(1 − π). Robust to the prevalence paradox.
 * Q counts the categories in `opts.categories` together with any rating seen; declare the categories so
 * that one nobody used still counts (e.g. a judge that passed everything). NaN when no unit was rated by
 * both or Q < 2.
 */
export function gwetAC1(
  a: readonly Rating[],
  b: readonly Rating[],
  opts: { categories?: readonly string[] } = {},
): number {
  const pairs = ratedByBoth('gwetAC1', a, b);
  if (pairs.length === 0) return Number.NaN;
  const { first, second } = marginals(pairs);
  const categories = new Set([...(opts.categories ?? []), ...first.keys(), ...second.keys()]);
  if (categories.size < 2) return Number.NaN;
  let spread = 0;
  for (const category of categories) {
    const pi = ((first.get(category) ?? 0) + (second.get(category) ?? 0)) / 2;
    spread += pi * (1 - pi);
  }
  const chance = spread / (categories.size - 1);
  return (observedAgreement(pairs) - chance) / (1 - chance);
}
