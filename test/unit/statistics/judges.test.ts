import { describe, expect, it } from 'vitest';
import {
  clopperPearson,
  cohenKappa,
  confusion,
  gwetAC1,
  krippendorffAlpha,
  normalQuantile,
  rawAgreement,
  roganGladen,
  sensitivitySpecificity,
} from '../../../src/statistics/index.js';
import type { Rating } from '../../../src/statistics/index.js';

/** Two raters' ratings from a contingency table: cells[i][j] units rated category i by A and j by B. */
function fromTable(categories: readonly string[], cells: readonly (readonly number[])[]): { a: Rating[]; b: Rating[] } {
  const a: Rating[] = [];
  const b: Rating[] = [];
  cells.forEach((row, i) =>
    row.forEach((count, j) => {
      for (let k = 0; k < count; k++) {
        a.push(categories[i] ?? null);
        b.push(categories[j] ?? null);
      }
    }),
  );
  return { a, b };
}

describe('roganGladen (Rogan & Gladen 1978; variance per Lee et al. 2025, arXiv 2511.21140)', () => {
  it('matches a hand computation', () => {
    // p̂ = 60/100, Se = 45/50 = .9, Sp = 40/50 = .8, J = .7, θ̂ = (.6 + .8 − 1)/.7 = 4/7.
    const result = roganGladen({
      positives: 60,
      n: 100,
      sensitivity: { tp: 45, fn: 5 },
      specificity: { tn: 40, fp: 10 },
    });
    const theta = 4 / 7;
    const variance = ((0.6 * 0.4) / 100 + (theta ** 2 * 0.9 * 0.1) / 50 + ((1 - theta) ** 2 * 0.8 * 0.2) / 50) / 0.49;
    const z = 1.959963984540054;
    expect(result.naive).toBe(0.6);
    expect(result.corrected).toBeCloseTo(theta, 15);
    expect(result.se).toBeCloseTo(Math.sqrt(variance), 15);
    expect(result.lower).toBeCloseTo(theta - z * Math.sqrt(variance), 14);
    expect(result.upper).toBeCloseTo(theta + z * Math.sqrt(variance), 14);
    expect(result.clipped).toBe(false);
  });

  it('a perfect judge leaves the rate and its binomial SE unchanged', () => {
    const result = roganGladen({
      positives: 30,
      n: 50,
      sensitivity: { tp: 20, fn: 0 },
      specificity: { tn: 20, fp: 0 },
    });
    expect(result.corrected).toBeCloseTo(0.6, 15);
    expect(result.se).toBeCloseTo(Math.sqrt((0.6 * 0.4) / 50), 15);
  });

  it('clips to [0, 1] and says so', () => {
    const result = roganGladen(
      { positives: 5, n: 100, sensitivity: { tp: 9, fn: 1 }, specificity: { tn: 8, fp: 2 } },
      { alpha: 0.1 },
    );
    expect(result.corrected).toBe(0);
    expect(result.clipped).toBe(true);
    expect(result.lower).toBe(0);
    expect(result.upper).toBeCloseTo(-normalQuantile(0.05) * result.se, 14);
  });

  it('refuses a judge no better than chance and missing controls', () => {
    expect(() =>
      roganGladen({ positives: 5, n: 10, sensitivity: { tp: 5, fn: 5 }, specificity: { tn: 5, fp: 5 } }),
    ).toThrow(/no better than chance/);
    expect(() =>
      roganGladen({ positives: 5, n: 10, sensitivity: { tp: 0, fn: 0 }, specificity: { tn: 5, fp: 0 } }),
    ).toThrow(/at least one labelled positive and one labelled negative control/);
    expect(() =>
      roganGladen({ positives: 11, n: 10, sensitivity: { tp: 5, fn: 0 }, specificity: { tn: 5, fp: 0 } }),
    ).toThrow(/positives must be an integer in \[0, 10\]/);
  });
});

describe('confusion and sensitivitySpecificity (exact CP intervals)', () => {
  it('counts verdicts against labels and keeps missing verdicts apart', () => {
    const labels = [true, true, true, false, false, false, true];
    const verdicts = [true, false, true, false, true, false, null];
    expect(confusion(labels, verdicts)).toEqual({ tp: 2, fn: 1, tn: 2, fp: 1, unjudged: 1 });
    expect(() => confusion([true], [])).toThrow(/pair up control by control/);
  });

  it('reports each rate with its Clopper–Pearson interval and counts', () => {
    const result = sensitivitySpecificity({ tp: 28, fn: 2, tn: 29, fp: 1 }, { sided: 'one' });
    const se = clopperPearson(28, 30, { sided: 'one' });
    const sp = clopperPearson(29, 30, { sided: 'one' });
    expect(result).toEqual({
      sensitivity: { value: 28 / 30, lower: se.lower, upper: se.upper, tp: 28, fn: 2 },
      specificity: { value: 29 / 30, lower: sp.lower, upper: sp.upper, tn: 29, fp: 1 },
    });
  });

  it('STATISTICS.md: a floor of .80 needs 30 + 30 controls with at most 2 errors each', () => {
    const trusted = sensitivitySpecificity({ tp: 28, fn: 2, tn: 28, fp: 2 }, { sided: 'one' });
    expect(trusted.sensitivity.lower).toBeGreaterThanOrEqual(0.8);
    expect(trusted.specificity.lower).toBeGreaterThanOrEqual(0.8);
    expect(sensitivitySpecificity({ tp: 27, fn: 3, tn: 28, fp: 2 }, { sided: 'one' }).sensitivity.lower).toBeLessThan(
      0.8,
    );
    expect(sensitivitySpecificity({ tp: 27, fn: 2, tn: 28, fp: 2 }, { sided: 'one' }).sensitivity.lower).toBeLessThan(
      0.8,
    );
  });

  it('a rate without controls is NaN with the uninformative interval [0, 1]', () => {
    const result = sensitivitySpecificity({ tp: 0, fn: 0, tn: 3, fp: 0 });
    expect(result.sensitivity.value).toBeNaN();
    expect(result.sensitivity).toMatchObject({ lower: 0, upper: 1 });
  });
});

describe('agreement coefficients against published worked examples', () => {
  const abstractors = fromTable(
    ['Ectopic', 'AIU', 'NIU'],
    [
      [13, 0, 0],
      [0, 20, 7],
      [0, 4, 56],
    ],
  );

  it('Cohen 1960, Table 1: pₒ = .70, pₑ = .41, κ = .29/.59 ≈ .492', () => {
    // Cell counts for N = 200 reconstructed from the published proportions (diagonal .44/.20/.06,
    // marginals .60/.30/.10 and .50/.30/.20); κ depends only on those.
    const { a, b } = fromTable(
      ['1', '2', '3'],
      [
        [88, 14, 18],
        [10, 40, 10],
        [2, 6, 12],
      ],
    );
    expect(rawAgreement(a, b)).toBeCloseTo(0.7, 15);
    expect(cohenKappa(a, b)).toBeCloseTo(0.29 / 0.59, 14);
  });

  it('Gwet 2014 (Handbook, 4th ed.) / irrCAC cont3x3abstractors: κ = 0.7964094, AC1 = 0.8493305, α = 0.7972585, pₐ = .89', () => {
    expect(cohenKappa(abstractors.a, abstractors.b)).toBeCloseTo(0.7964094, 7);
    expect(gwetAC1(abstractors.a, abstractors.b)).toBeCloseTo(0.8493305, 7);
    expect(krippendorffAlpha([abstractors.a, abstractors.b])).toBeCloseTo(0.7972585, 7);
    expect(rawAgreement(abstractors.a, abstractors.b)).toBeCloseTo(0.89, 15);
  });

  it('Gwet 2008 two-category form: pₑ = 2π(1 − π); AC1 survives the prevalence paradox where κ collapses', () => {
    // 125 units, nearly all "pass": A+B+ 118, A+B− 5, A−B+ 2, A−B− 0. pₒ = .944,
    // κ: pₑ = .984·.96 + .016·.04 = .94528 → κ ≈ −.0234; AC1: π = (.984 + .96)/2 = .972, pₑ = 2π(1 − π).
    const { a, b } = fromTable(
      ['pass', 'fail'],
      [
        [118, 5],
        [2, 0],
      ],
    );
    const pi = 0.972;
    const chance = 2 * pi * (1 - pi);
    expect(rawAgreement(a, b)).toBeCloseTo(0.944, 15);
    expect(cohenKappa(a, b)).toBeCloseTo((0.944 - 0.94528) / (1 - 0.94528), 12);
    expect(gwetAC1(a, b)).toBeCloseTo((0.944 - chance) / (1 - chance), 14);
    expect(gwetAC1(a, b)).toBeGreaterThan(0.9);
  });

  it('Gwet AC1 counts declared categories nobody used', () => {
    const a = ['pass', 'pass', 'pass'];
    const b = ['pass', 'pass', 'pass'];
    expect(gwetAC1(a, b)).toBeNaN();
    expect(gwetAC1(a, b, { categories: ['pass', 'fail'] })).toBe(1);
    expect(cohenKappa(a, b)).toBeNaN();
  });

  it("Krippendorff 2011, 'Computing Krippendorff's Alpha-Reliability': two observers, binary data, α = 0.095", () => {
    const a = '0 1 0 0 0 0 0 0 1 0'.split(' ');
    const b = '1 1 1 0 0 1 0 0 0 0'.split(' ');
    expect(krippendorffAlpha([a, b])).toBeCloseTo(0.095, 3);
  });

  it('Krippendorff 2011: four observers, 12 units, nominal values with missing data, α = 0.743 (irrCAC: 0.74342)', () => {
    const ratings: Rating[][] = [
      ['1', '2', '3', '3', '2', '1', '4', '1', '2', null, null, null],
      ['1', '2', '3', '3', '2', '2', '4', '1', '2', '5', null, '3'],
      [null, '3', '3', '3', '2', '3', '4', '2', '2', '5', '1', null],
      ['1', '2', '3', '3', '2', '4', '4', '1', '2', '5', '1', null],
    ];
    expect(krippendorffAlpha(ratings)).toBeCloseTo(0.74342, 5);
  });

  it('missing ratings: pairwise coefficients use the units both raters rated', () => {
    const a: Rating[] = ['x', 'y', null, 'x', 'y'];
    const b: Rating[] = ['x', 'x', 'y', null, 'y'];
    expect(rawAgreement(a, b)).toBeCloseTo(2 / 3, 15);
    expect(cohenKappa(a, b)).toBeCloseTo(cohenKappa(['x', 'y', 'y'], ['x', 'x', 'y']), 15);
    expect(rawAgreement([null], ['x'])).toBeNaN();
    expect(
      krippendorffAlpha([
        ['a', null],
        [null, 'b'],
      ]),
    ).toBeNaN();
  });

  it('reject ratings that do not pair up', () => {
    expect(() => cohenKappa(['a'], ['a', 'b'])).toThrow(/pair up unit by unit/);
    expect(() => krippendorffAlpha([['a', 'b'], ['a']])).toThrow(/one entry per unit/);
  });
});
