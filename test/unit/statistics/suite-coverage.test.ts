import { describe, expect, it } from 'vitest';
import { clusteredRate, seededRandom, type ClusterInput } from '../../../src/statistics/index.js';

type Random = () => number;

/** Standard normal by Box–Muller. */
const normal = (random: Random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** Gamma(k, 1) by Marsaglia & Tsang (2000), ACM TOMS 26:363–372; k < 1 by boosting with U^(1/k). */
function gamma(random: Random, k: number): number {
  if (k < 1) return gamma(random, k + 1) * (1 - random()) ** (1 / k);
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(random);
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = 1 - random();
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * One simulated suite of m cases: each case's rate is drawn from Beta(p(1 − ρ)/ρ, (1 − p)(1 − ρ)/ρ), whose mean is p
 * and whose intra-case correlation of attempts is ρ; each case runs one attempt, or 1–10 uniformly.
 */
function suite(random: Random, m: number, attempts: 'one' | 'one-to-ten', p: number, icc: number): ClusterInput[] {
  const a = (p * (1 - icc)) / icc;
  const b = ((1 - p) * (1 - icc)) / icc;
  return Array.from({ length: m }, () => {
    const x = gamma(random, a);
    const rate = x / (x + gamma(random, b));
    const n = attempts === 'one' ? 1 : 1 + Math.floor(random() * 10);
    let successes = 0;
    for (let j = 0; j < n; j++) if (random() < rate) successes++;
    return { successes, attempts: n };
  });
}

/** Suites per grid point: enough that an interval covering 90% would show (3 SE ≈ .03 below .95). */
const REPLICATIONS = 400;

describe('case-clustered suite interval (Korn–Graubard): coverage on the grid of issue 10, seeded', () => {
  it('covers the true rate ≥ 93% at 20, 50, 200 cases × 1 and 1–10 attempts × p .5, .8, .95 × ICC .1, .3', () => {
    const random = seededRandom(20261130);
    const below: string[] = [];
    const coverage: number[] = [];
    for (const m of [20, 50, 200])
      for (const attempts of ['one', 'one-to-ten'] as const)
        for (const p of [0.5, 0.8, 0.95])
          for (const icc of [0.1, 0.3]) {
            let covered = 0;
            for (let r = 0; r < REPLICATIONS; r++) {
              const { lower, upper } = clusteredRate(suite(random, m, attempts, p, icc));
              if (lower <= p && p <= upper) covered++;
            }
            coverage.push(covered / REPLICATIONS);
            if (covered / REPLICATIONS < 0.93) below.push(`${m} cases × ${attempts}, p ${p}, ICC ${icc}: ${covered}`);
          }
    expect(coverage).toHaveLength(36);
    expect(below).toEqual([]);
  }, 600_000);

  it('is never of zero width, and stays inside [0, 1], when every case scores 1 or 0', () => {
    const ones = Array.from({ length: 20 }, () => ({ successes: 1, attempts: 1 }));
    const allPass = clusteredRate(ones);
    expect(allPass.upper).toBe(1);
    expect(allPass.lower).toBeGreaterThan(0.8);
    expect(allPass.lower).toBeLessThan(1);
    const zeros = Array.from({ length: 20 }, () => ({ successes: 0, attempts: 3 }));
    const allFail = clusteredRate(zeros);
    expect(allFail.lower).toBe(0);
    expect(allFail.upper).toBeGreaterThan(0);
    expect(allFail.method).toBe('korn-graubard');
  });
});
