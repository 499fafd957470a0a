import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  clusterBootstrapRate,
  clusteredRate,
  mcnemarExact,
  normalQuantile,
  pairedDifference,
  seededRandom,
  tQuantile,
  wilson,
} from '../../../src/statistics/index.js';
import type { ClusterInput } from '../../../src/statistics/index.js';

describe('clusteredRate (Miller 2024; Korn & Graubard 1998): case means as units, CP on the effective size', () => {
  it('matches a hand computation: mean of case rates, SE = √(Σ(s̄ᵢ − s̄)²/(m(m − 1))), n* = s̄(1 − s̄)/SE²', () => {
    const cases = [
      { successes: 1, attempts: 2 },
      { successes: 3, attempts: 4 },
      { successes: 5, attempts: 5 },
      { successes: 0, attempts: 3 },
    ];
    const means = [0.5, 0.75, 1, 0];
    const mean = 2.25 / 4;
    const se = Math.sqrt(means.reduce((s, v) => s + (v - mean) ** 2, 0) / (4 * 3));
    const rate = clusteredRate(cases);
    expect(rate.mean).toBeCloseTo(mean, 15);
    expect(rate.se).toBeCloseTo(se, 15);
    // n* = s̄(1 − s̄)/SE² ≈ 1.45 (below the 14 attempts), scaled by (z/t₃)² for 3 degrees of freedom.
    const n = ((mean * (1 - mean)) / se ** 2) * (normalQuantile(0.975) / tQuantile(0.975, 3)) ** 2;
    const x = mean * n;
    expect(rate.effectiveAttempts).toBeCloseTo(n, 12);
    expect(rate.lower).toBeCloseTo(betaQuantile(0.025, x, n - x + 1), 9);
    expect(rate.upper).toBeCloseTo(betaQuantile(0.975, x + 1, n - x), 9);
    expect(rate).toMatchObject({ method: 'korn-graubard', cases: 4, attempts: 14 });
    const pooled = wilson(9, 14);
    expect(rate.pooledWilson).toEqual({ lower: pooled.lower, upper: pooled.upper });
  });

  it('ICC (ANOVA estimator) and Kish design effect match a hand computation', () => {
    // Three cases of 4 attempts: 4/4, 2/4, 0/4. p̄ = .5, MSB = (4+1+0 − 36/12)/2 = 1, MSW = (6 − 5)/9 = 1/9,
    // n₀ = 4, ICC = (1 − 1/9)/(1 + 3/9) = 2/3, design effect 1 + 3·(2/3) = 3.
    const rate = clusteredRate([
      { successes: 4, attempts: 4 },
      { successes: 2, attempts: 4 },
      { successes: 0, attempts: 4 },
    ]);
    expect(rate.icc).toBeCloseTo(2 / 3, 14);
    expect(rate.designEffect).toBeCloseTo(3, 14);
  });

  it('ICC is 0 and the design effect 1 when not estimable', () => {
    const single = clusteredRate([
      { successes: 1, attempts: 1 },
      { successes: 0, attempts: 1 },
    ]);
    expect(single).toMatchObject({ icc: 0, designEffect: 1 });
    const uniform = clusteredRate([
      { successes: 3, attempts: 3 },
      { successes: 5, attempts: 5 },
    ]);
    // No spread to estimate: each case counts once (n* = 2 before the degrees-of-freedom scaling), never zero width.
    expect(uniform).toMatchObject({ icc: 0, designEffect: 1, se: 0, upper: 1 });
    expect(uniform.lower).toBeLessThan(0.5);
  });

  it('rejects fewer than 2 cases and bad counts', () => {
    expect(() => clusteredRate([{ successes: 1, attempts: 2 }])).toThrow(/at least 2 cases/);
    expect(() =>
      clusteredRate([
        { successes: 1, attempts: 0 },
        { successes: 0, attempts: 1 },
      ]),
    ).toThrow(/cases\[0\]\.attempts/);
    expect(() =>
      clusteredRate([
        { successes: 3, attempts: 2 },
        { successes: 0, attempts: 1 },
      ]),
    ).toThrow(/cases\[0\]\.successes/);
  });
});

describe('suite simulation: heterogeneous cases, p ~ Beta(½, ½), 30–200 cases, 5–20 attempts each', () => {
  /** One simulated suite; Beta(½, ½) is the arcsine law, p = sin²(πU/2). Population mean rate ½. */
  function simulateSuite(random: () => number): ClusterInput[] {
    const m = 30 + Math.floor(random() * 171);
    return Array.from({ length: m }, () => {
      const p = Math.sin((Math.PI * random()) / 2) ** 2;
      const attempts = 5 + Math.floor(random() * 16);
      let successes = 0;
      for (let j = 0; j < attempts; j++) if (random() < p) successes++;
      return { successes, attempts };
    });
  }

  it('cluster CLT covers the population rate about 95% of the time; the pooled Wilson interval far less (2,000 suites)', () => {
    const random = seededRandom(20241101);
    const replications = 2_000;
    let clusterCovers = 0;
    let pooledCovers = 0;
    for (let r = 0; r < replications; r++) {
      const rate = clusteredRate(simulateSuite(random));
      if (rate.lower <= 0.5 && 0.5 <= rate.upper) clusterCovers++;
      if (rate.pooledWilson.lower <= 0.5 && 0.5 <= rate.pooledWilson.upper) pooledCovers++;
    }
    // Seeded, so the figure is fixed (0.9495); the band is ±3 standard errors of a 2,000-suite estimate at 95%
    // (√(.95·.05/2000) ≈ .005), so a bias in the interval of that size would fail it.
    expect(clusterCovers / replications).toBeGreaterThanOrEqual(0.935);
    expect(clusterCovers / replications).toBeLessThanOrEqual(0.965);
    // ICC = Var(p)/(p̄(1 − p̄)) = .125/.25 = .5, so pooling understates the SE by √(1 + (n − 1)·.5) ≈ 2.6.
    expect(pooledCovers / replications).toBeLessThan(0.7);
  });

  it('estimates the design effect near 1 + (n̄ − 1)·ICC with ICC = ½', () => {
    const random = seededRandom(5);
    const rates = Array.from({ length: 200 }, () => clusteredRate(simulateSuite(random)));
    const meanIcc = rates.reduce((s, r) => s + r.icc, 0) / rates.length;
    expect(meanIcc).toBeGreaterThan(0.45);
    expect(meanIcc).toBeLessThan(0.55);
  });

  it('the cluster bootstrap is deterministic for a seed and agrees with the CLT interval on a large suite', () => {
    const cases = simulateSuite(seededRandom(11));
    const first = clusterBootstrapRate(cases, { seed: 42 });
    expect(clusterBootstrapRate(cases, { seed: 42 })).toEqual(first);
    expect(clusterBootstrapRate(cases, { seed: 43 })).not.toEqual(first);
    const clt = clusteredRate(cases);
    expect(first).toMatchObject({ method: 'cluster-bootstrap', mean: clt.mean, cases: clt.cases, icc: clt.icc });
    expect(first.se).toBeCloseTo(clt.se, 2);
    expect(Math.abs(first.lower - clt.lower)).toBeLessThan(0.02);
    expect(Math.abs(first.upper - clt.upper)).toBeLessThan(0.02);
  });

  it('the cluster bootstrap takes resamples and alpha, and rejects too few resamples', () => {
    const cases = simulateSuite(seededRandom(12));
    const narrow = clusterBootstrapRate(cases, { seed: 1, resamples: 500, alpha: 0.2 });
    const wide = clusterBootstrapRate(cases, { seed: 1, resamples: 500, alpha: 0.01 });
    expect(wide.upper - wide.lower).toBeGreaterThan(narrow.upper - narrow.lower);
    expect(() => clusterBootstrapRate(cases, { seed: 1, resamples: 1 })).toThrow(/resamples must be an integer >= 2/);
  });
});

describe('pairedDifference (paired t)', () => {
  it('matches a hand computation', () => {
    const a = [0.9, 0.8, 1, 0.4, 0.7];
    const b = [0.7, 0.8, 0.6, 0.5, 0.4];
    const d = [0.2, 0, 0.4, -0.1, 0.3];
    const mean = d.reduce((s, v) => s + v, 0) / 5;
    const se = Math.sqrt(d.reduce((s, v) => s + (v - mean) ** 2, 0) / 4 / 5);
    const result = pairedDifference(a, b);
    expect(result.mean).toBeCloseTo(mean, 15);
    expect(result.se).toBeCloseTo(se, 15);
    expect(result.lower).toBeCloseTo(mean - tQuantile(0.975, 4) * se, 15);
    expect(result.upper).toBeCloseTo(mean + tQuantile(0.975, 4) * se, 15);
    expect(result.pairs).toBe(5);
  });

  it('rejects unpaired or too short inputs', () => {
    expect(() => pairedDifference([1, 2], [1])).toThrow(/pair up case by case/);
    expect(() => pairedDifference([1], [1])).toThrow(/at least 2 pairs/);
    expect(() => pairedDifference([1, Number.NaN], [1, 2])).toThrow(/pair 1 is not two finite numbers/);
  });
});

describe('mcnemarExact (McNemar 1947, exact binomial form)', () => {
  it('doubles the smaller binomial tail: b = 1, c = 9 gives 2·11/1024', () => {
    expect(mcnemarExact(1, 9)).toMatchObject({ b: 1, c: 9 });
    expect(mcnemarExact(1, 9).pValue).toBeCloseTo(22 / 1024, 15);
    expect(mcnemarExact(9, 1).pValue).toBeCloseTo(22 / 1024, 15);
    expect(mcnemarExact(0, 5).pValue).toBeCloseTo(2 / 32, 15);
  });

  it('gives 1 with no discordant pairs or a balanced split', () => {
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(6, 6).pValue).toBe(1);
    expect(mcnemarExact(6, 7).pValue).toBe(1);
  });

  it('approaches the continuity-corrected normal test for many pairs', () => {
    // z = (|b − c| − 1)/√(b + c) = 59/√1000 ≈ 1.866 → two-sided ≈ 0.062.
    expect(mcnemarExact(470, 530).pValue).toBeCloseTo(0.062, 2);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(/b must be an integer/);
  });
});
