import type { Rating } from './types.js';

/** A unit rated by both raters. */
export type RatingPair = readonly [string, string];

/**
 * The units both raters rated, in order; units where either rating is missing (null) are left out, as in
 * Cohen (1960) and Gwet (2008) for two raters. Throws if the two rating lists do not pair up.
 */
export function ratedByBoth(where: string, a: readonly Rating[], b: readonly Rating[]): RatingPair[] {
  if (a.length !== b.length) {
    throw new RangeError(
      `${where}: the two raters' ratings must pair up unit by unit (got ${a.length} and ${b.length})`,
    );
  }
  const pairs: RatingPair[] = [];
  a.forEach((first, i) => {
    const second = b[i];
    if (first !== null && second !== null && second !== undefined) pairs.push([first, second]);
  });
  return pairs;
}

/** Share of pairs on which the raters agree (pₒ). */
export function observedAgreement(pairs: readonly RatingPair[]): number {
  return pairs.filter(([first, second]) => first === second).length / pairs.length;
}

/** Per-category proportions of each rater's ratings over the pairs. */
export function marginals(pairs: readonly RatingPair[]): { first: Map<string, number>; second: Map<string, number> } {
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  const weight = 1 / pairs.length;
  for (const [x, y] of pairs) {
    first.set(x, (first.get(x) ?? 0) + weight);
    second.set(y, (second.get(y) ?? 0) + weight);
  }
  return { first, second };
}
