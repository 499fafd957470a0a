import type { Rating } from './types.js';

/**
 * Krippendorff's alpha for nominal data, any number of raters, missing ratings allowed
 * (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", Annenberg School, U. Pennsylvania;
 * Hayes & Krippendorff 2007). `ratings[rater][unit]`, null = missing. Each unit with mᵤ ≥ 2 ratings adds
 * 1/(mᵤ − 1) to the coincidence o_ck of every ordered pair of its ratings from different raters; with
 * n_c = Σ_k o_ck and n = Σ_c n_c,
 *   α = 1 − D_o/D_e = 1 − (n − 1)·Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k.
 * Units with fewer than 2 ratings are not pairable and are ignored. NaN when no unit is pairable or only
 * one value occurs (no expected disagreement). ≥ .80 is reliable, ≥ .667 tentative (Krippendorff 2004).
 */
export function krippendorffAlpha(ratings: readonly (readonly Rating[])[]): number {
  const units = ratings[0]?.length ?? 0;
  ratings.forEach((row, rater) => {
    if (row.length !== units) {
      throw new RangeError(
        `krippendorffAlpha: every rater needs one entry per unit, null if missing (rater 0 has ${units}, rater ${rater} has ${row.length})`,
      );
    }
  });
  const coincidences = new Map<string, Map<string, number>>();
  const add = (c: string, k: string, weight: number): void => {
    const row = coincidences.get(c) ?? new Map<string, number>();
    row.set(k, (row.get(k) ?? 0) + weight);
    coincidences.set(c, row);
  };
  for (let unit = 0; unit < units; unit++) {
    const values = ratings.map((row) => row[unit]).filter((v): v is string => v !== null && v !== undefined);
    if (values.length < 2) continue;
    const weight = 1 / (values.length - 1);
    values.forEach((c, i) => {
      values.forEach((k, j) => {
        if (i !== j) add(c, k, weight);
      });
    });
  }
  let total = 0;
  let observedDisagreement = 0;
  const valueTotals = new Map<string, number>();
  for (const [c, row] of coincidences) {
    for (const [k, count] of row) {
      total += count;
      if (c !== k) observedDisagreement += count;
      valueTotals.set(c, (valueTotals.get(c) ?? 0) + count);
    }
  }
  let expectedDisagreement = 0;
  for (const [c, nc] of valueTotals) {
    for (const [k, nk] of valueTotals) if (c !== k) expectedDisagreement += nc * nk;
  }
  if (total === 0 || expectedDisagreement === 0) return Number.NaN;
  return 1 - ((total - 1) * observedDisagreement) / expectedDisagreement;
}
