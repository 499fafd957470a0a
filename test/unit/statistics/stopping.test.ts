import { describe, expect, it } from 'vitest';
import {
  describeStoppingRule,
  lnBeta,
  operatingCharacteristics,
  sequentialOperatingCharacteristics,
  stoppingDecision,
  validateStoppingRule,
  wilson,
} from '../../../src/statistics/index.js';
import type { StoppingDecision, StoppingRuleSpec } from '../../../src/statistics/index.js';

const GRID = Array.from({ length: 101 }, (_, i) => i / 100);

/**
 * Check that a rule's stopping region is monotone: at every t, PASS at S successes means PASS at S + 1, and FAIL at
 * S means FAIL at S − 1. Then P(PASS | p) rises and P(FAIL | p) falls with p (couple the attempts as U < p: a run
 * at a larger p has at least as many successes at every t, so it cannot fail where the smaller one did not, nor miss
 * a PASS the smaller one reached), and the exact error at the boundary p bounds it for every p beyond, a check of
 * the whole interval in one dynamic programme instead of a grid of them.
 */
function expectMonotone(rule: StoppingRuleSpec): void {
  const horizon = rule.kind === 'fixed' || rule.kind === 'curtail' ? rule.n : rule.nMax;
  for (let trials = 0; trials <= horizon; trials++) {
    const decisions = Array.from({ length: trials + 1 }, (_, successes) => stoppingDecision(rule, successes, trials));
    const firstPass = decisions.indexOf('pass');
    const lastFail = decisions.lastIndexOf('fail');
    if (firstPass >= 0) expect(decisions.slice(firstPass).every((d) => d === 'pass')).toBe(true);
    if (lastFail >= 0) expect(decisions.slice(0, lastFail + 1).every((d) => d === 'fail')).toBe(true);
  }
}

describe('curtailment never changes the fixed-n verdict', () => {
  it('exhaustive: over 36 rules, wherever curtailment stops, every way the remaining attempts can go gives that verdict at n', () => {
    const rules: { n: number; threshold: number; alpha: number }[] = [];
    for (const n of [5, 10, 14, 20, 30, 50]) {
      for (const threshold of [0.5, 0.8, 0.9]) for (const alpha of [0.05, 0.1]) rules.push({ n, threshold, alpha });
    }
    // Every state (successes, trials), reachable or not, and every final count it can lead to: an exact check
    // of what a Monte Carlo over sequences would only sample.
    let mismatches = 0;
    let earlyStops = 0;
    for (const rule of rules) {
      const curtail: StoppingRuleSpec = { kind: 'curtail', ...rule };
      const fixed: StoppingRuleSpec = { kind: 'fixed', ...rule };
      for (let trials = 0; trials <= rule.n; trials++) {
        for (let successes = 0; successes <= trials; successes++) {
          const decision = stoppingDecision(curtail, successes, trials);
          if (decision === 'continue') continue;
          if (trials < rule.n) earlyStops++;
          for (let later = 0; later <= rule.n - trials; later++) {
            if (stoppingDecision(fixed, successes + later, rule.n) !== decision) mismatches++;
          }
        }
      }
    }
    expect(mismatches).toBe(0);
    expect(earlyStops).toBeGreaterThan(rules.length);
  });

  it('exact OC: curtailed and fixed rules have the same verdict probabilities; curtail runs fewer attempts', () => {
    for (const rule of [
      { n: 20, threshold: 0.8, alpha: 0.05 },
      { n: 50, threshold: 0.9, alpha: 0.05 },
      { n: 30, threshold: 0.5, alpha: 0.1 },
    ]) {
      for (const p of [0, 0.3, 0.5, 0.8, 0.95, 1]) {
        const fixed = operatingCharacteristics({ kind: 'fixed', ...rule }, p);
        const curtailed = operatingCharacteristics({ kind: 'curtail', ...rule }, p);
        expect(curtailed.pPass).toBeCloseTo(fixed.pPass, 12);
        expect(curtailed.pFail).toBeCloseTo(fixed.pFail, 12);
        expect(curtailed.pInconclusive).toBeCloseTo(fixed.pInconclusive, 12);
        expect(fixed.expectedN).toBeCloseTo(rule.n, 12);
        expect(curtailed.expectedN).toBeLessThanOrEqual(rule.n);
      }
    }
  });

  it('STATISTICS.md: curtailment saves little, E[N] = 15.4 of 20 at p = .5 (τ = .8)', () => {
    expect(
      operatingCharacteristics({ kind: 'curtail', n: 20, threshold: 0.8, alpha: 0.05 }, 0.5).expectedN,
    ).toBeCloseTo(15.39, 2);
  });

  it('fixed and curtailed rules keep each one-sided error at or below alpha for every p', () => {
    for (const kind of ['fixed', 'curtail'] as const) {
      for (const { n, threshold } of [
        { n: 20, threshold: 0.8 },
        { n: 50, threshold: 0.8 },
        { n: 40, threshold: 0.6 },
      ]) {
        const rule: StoppingRuleSpec = { kind, n, threshold, alpha: 0.05 };
        expectMonotone(rule);
        // By monotonicity the errors for p < τ and p ≥ τ are at most those at τ itself.
        const atThreshold = operatingCharacteristics(rule, threshold);
        expect(atThreshold.pPass).toBeLessThanOrEqual(0.05);
        expect(atThreshold.pFail).toBeLessThanOrEqual(0.05);
      }
    }
  });
});

describe('Wald SPRT (Wald 1945): exact operating characteristics by DP', () => {
  const example: StoppingRuleSpec = { kind: 'sprt', p0: 0.65, p1: 0.92, alpha: 0.05, beta: 0.05, nMax: 50 };

  it('reproduces STATISTICS.md: P(PASS|p0) = 4.4%, P(FAIL|p1) = 3.2%, E[N] = 6.1 at .5, 19.5 at .8, 9 at 1', () => {
    expect(operatingCharacteristics(example, 0.65).pPass).toBeCloseTo(0.0441, 4);
    expect(operatingCharacteristics(example, 0.92).pFail).toBeCloseTo(0.0322, 4);
    expect(operatingCharacteristics(example, 0.5).expectedN).toBeCloseTo(6.08, 2);
    expect(operatingCharacteristics(example, 0.8).expectedN).toBeCloseTo(19.52, 2);
    expect(operatingCharacteristics(example, 1).expectedN).toBeCloseTo(9, 12);
  });

  it('keeps P(PASS | p <= p0) <= alpha and P(FAIL | p >= p1) <= beta for these designs', () => {
    // Wald's boundaries guarantee only about alpha and beta (α' ≤ α/(1 − β)); for these designs the exact
    // truncated errors are below the nominal levels, which is what the DP checks.
    for (const design of [
      example,
      { kind: 'sprt', p0: 0.5, p1: 0.8, alpha: 0.05, beta: 0.1, nMax: 100 },
      { kind: 'sprt', p0: 0.7, p1: 0.9, alpha: 0.05, beta: 0.05, nMax: 150 },
      { kind: 'sprt', p0: 0.8, p1: 0.95, alpha: 0.01, beta: 0.05, nMax: 150 },
      { kind: 'sprt', p0: 0.3, p1: 0.5, alpha: 0.1, beta: 0.1, nMax: 200 },
    ] satisfies StoppingRuleSpec[]) {
      expectMonotone(design);
      expect(operatingCharacteristics(design, design.p0).pPass, JSON.stringify(design)).toBeLessThanOrEqual(
        design.alpha,
      );
      expect(operatingCharacteristics(design, design.p1).pFail, JSON.stringify(design)).toBeLessThanOrEqual(
        design.beta,
      );
    }
  });

  it('probabilities add up to 1 and the rule always stops by nMax', () => {
    for (const p of [0, 0.2, 0.65, 0.8, 1]) {
      const oc = operatingCharacteristics(example, p);
      expect(oc.pPass + oc.pFail + oc.pInconclusive).toBeCloseTo(1, 12);
      expect(oc.expectedN).toBeLessThanOrEqual(50);
    }
    expect(stoppingDecision(example, 40, 50)).not.toBe('continue');
  });
});

describe('beta-binomial mixture confidence sequence (Robbins 1970; Howard et al. 2021)', () => {
  const designs: StoppingRuleSpec[] = [
    { kind: 'confidence-sequence', threshold: 0.8, alpha: 0.05, nMax: 50 },
    { kind: 'confidence-sequence', threshold: 0.5, alpha: 0.1, nMax: 100 },
    { kind: 'confidence-sequence', threshold: 0.9, alpha: 0.05, nMax: 150, priorA: 1, priorB: 1 },
    { kind: 'confidence-sequence', threshold: 0.8, alpha: 0.01, nMax: 150, priorA: 4, priorB: 1 },
  ];

  it('keeps P(PASS | p <= τ) <= alpha and P(FAIL | p >= τ) <= alpha; at p = τ both together <= alpha', () => {
    for (const design of designs) {
      if (design.kind !== 'confidence-sequence') continue;
      const { threshold, alpha } = design;
      expectMonotone(design);
      const atThreshold = operatingCharacteristics(design, threshold);
      expect(atThreshold.pPass).toBeLessThanOrEqual(alpha);
      expect(atThreshold.pFail).toBeLessThanOrEqual(alpha);
      expect(atThreshold.pPass + atThreshold.pFail).toBeLessThanOrEqual(alpha);
    }
  });

  it('decides from the sequence itself: PASS/FAIL iff the mixture martingale excludes every p on one side of τ', () => {
    const rule = { kind: 'confidence-sequence', threshold: 0.7, alpha: 0.05, nMax: 40 } as const;
    const logBound = -Math.log(rule.alpha);
    const logM = (s: number, t: number, p: number): number =>
      lnBeta(0.5 + s, 0.5 + t - s) - lnBeta(0.5, 0.5) - s * Math.log(p) - (t - s) * Math.log1p(-p);
    const below = GRID.filter((p) => p > 0 && p < 0.7);
    const above = GRID.filter((p) => p >= 0.7 && p < 1);
    for (let t = 1; t <= 40; t++) {
      for (let s = 0; s <= t; s++) {
        const decision = stoppingDecision(rule, s, t);
        const excludesBelow = below.every((p) => logM(s, t, p) >= logBound);
        const excludesAbove = above.every((p) => logM(s, t, p) >= logBound);
        if (decision === 'pass') expect(excludesBelow, `${s}/${t}`).toBe(true);
        if (decision === 'fail') expect(excludesAbove, `${s}/${t}`).toBe(true);
        if (decision === 'continue' || decision === 'inconclusive') expect(logM(s, t, 0.7)).toBeLessThan(logBound);
      }
    }
  });

  it('all-passes needed to certify .8: 24 with the default Jeffreys prior at α = .05; 27 at α = .025 (the STATISTICS.md figure); 29 with a uniform prior', () => {
    const firstPass = (rule: StoppingRuleSpec): number => {
      let t = 1;
      while (stoppingDecision(rule, t, t) !== 'pass') t++;
      return t;
    };
    expect(firstPass({ kind: 'confidence-sequence', threshold: 0.8, alpha: 0.05, nMax: 100 })).toBe(24);
    expect(firstPass({ kind: 'confidence-sequence', threshold: 0.8, alpha: 0.025, nMax: 100 })).toBe(27);
    expect(
      firstPass({ kind: 'confidence-sequence', threshold: 0.8, alpha: 0.05, nMax: 100, priorA: 1, priorB: 1 }),
    ).toBe(29);
  });
});

describe('regression: peeking at a Wilson interval is invalid (STATISTICS.md, "Stopping rules")', () => {
  const threshold = 0.8;
  const nMax = 50;
  /** Recompute the two-sided 95% Wilson interval after every attempt and stop as soon as it clears τ. */
  const naivePeeking = (successes: number, trials: number): StoppingDecision => {
    if (trials === 0) return 'continue';
    const { lower, upper } = wilson(successes, trials);
    if (lower >= threshold) return 'pass';
    if (upper < threshold) return 'fail';
    return trials >= nMax ? 'inconclusive' : 'continue';
  };

  it('breaks the bound at p = τ: exact false PASS 6.6% (STATISTICS.md: 6.7%) against 2.5% nominal', () => {
    const peeking = sequentialOperatingCharacteristics(naivePeeking, nMax, threshold);
    expect(peeking.pPass).toBeCloseTo(0.0662, 4);
    expect(peeking.pPass).toBeGreaterThan(0.05);
    // STATISTICS.md quotes 21.1% false FAIL; exactly it is 31.3% when peeking from the first attempt
    // (the Wilson upper bound for 0/1 is 0.793 < .8, so one early failure already "fails"), 21.0% from the second.
    expect(peeking.pFail).toBeCloseTo(0.3134, 4);
    const fromSecond = sequentialOperatingCharacteristics(
      (s, t) => (t < 2 ? 'continue' : naivePeeking(s, t)),
      nMax,
      threshold,
    );
    expect(fromSecond.pFail).toBeCloseTo(0.2095, 4);
  });

  it('the offered rules at the same horizon stay within their error rates at p = τ', () => {
    const offered: StoppingRuleSpec[] = [
      { kind: 'fixed', n: nMax, threshold, alpha: 0.05 },
      { kind: 'curtail', n: nMax, threshold, alpha: 0.05 },
      { kind: 'sprt', p0: threshold, p1: 0.95, alpha: 0.05, beta: 0.05, nMax },
      { kind: 'confidence-sequence', threshold, alpha: 0.05, nMax },
    ];
    for (const rule of offered) {
      const oc = operatingCharacteristics(rule, threshold);
      expect(oc.pPass, rule.kind).toBeLessThanOrEqual(0.05);
      if (rule.kind !== 'sprt') expect(oc.pFail, rule.kind).toBeLessThanOrEqual(0.05);
    }
  });
});

describe('stoppingDecision, validateStoppingRule, describeStoppingRule', () => {
  it('fixed continues until n; every rule stops by its horizon', () => {
    const fixed: StoppingRuleSpec = { kind: 'fixed', n: 20, threshold: 0.8, alpha: 0.05 };
    expect(stoppingDecision(fixed, 0, 19)).toBe('continue');
    expect(stoppingDecision(fixed, 0, 20)).toBe('fail');
    expect(stoppingDecision({ kind: 'curtail', n: 20, threshold: 0.8, alpha: 0.05 }, 0, 8)).toBe('fail');
    expect(stoppingDecision({ kind: 'curtail', n: 20, threshold: 0.8, alpha: 0.05 }, 13, 14)).toBe('inconclusive');
    expect(stoppingDecision({ kind: 'confidence-sequence', threshold: 0.8, alpha: 0.05, nMax: 10 }, 8, 10)).toBe(
      'inconclusive',
    );
  });

  it('sequentialOperatingCharacteristics refuses a rule that runs past its horizon', () => {
    expect(() => sequentialOperatingCharacteristics(() => 'continue', 5, 0.5)).toThrow(/continued past its horizon 5/);
  });

  it('rejects counts outside the rule', () => {
    const rule: StoppingRuleSpec = { kind: 'fixed', n: 20, threshold: 0.8, alpha: 0.05 };
    expect(() => stoppingDecision(rule, 0, 21)).toThrow(/trials must be an integer in \[0, 20\]/);
    expect(() => stoppingDecision(rule, 5, 4)).toThrow(/successes must be an integer in \[0, 4\]/);
    expect(() => operatingCharacteristics(rule, 1.5)).toThrow(/p must be a number in \[0, 1\]/);
  });

  it('validateStoppingRule says what to fix', () => {
    const cases: [StoppingRuleSpec, RegExp][] = [
      [{ kind: 'fixed', n: 0, threshold: 0.8, alpha: 0.05 }, /'fixed': n must be an integer from 1 to 100000/],
      [{ kind: 'curtail', n: 20, threshold: 1, alpha: 0.05 }, /threshold must be a number strictly between 0 and 1/],
      [{ kind: 'sprt', p0: 0.9, p1: 0.8, alpha: 0.05, beta: 0.05, nMax: 50 }, /p0 must be below p1/],
      [{ kind: 'sprt', p0: 0.6, p1: 0.8, alpha: 0.6, beta: 0.5, nMax: 50 }, /alpha \+ beta must be below 1/],
      [
        { kind: 'sprt', p0: 0.6, p1: 0.8, alpha: 0.05, beta: 0, nMax: 50 },
        /beta must be a number strictly between 0 and 1/,
      ],
      [{ kind: 'sprt', p0: 0.6, p1: 0.8, alpha: 0.05, beta: 0.05, nMax: 2.5 }, /nMax must be an integer/],
      [
        { kind: 'confidence-sequence', threshold: 0.8, alpha: 0.05, nMax: 50, priorA: 0 },
        /priorA must be a finite number > 0/,
      ],
      [
        { kind: 'bogus' } as unknown as StoppingRuleSpec,
        /kind must be 'fixed', 'curtail', 'sprt' or 'confidence-sequence' \(got "bogus"\)/,
      ],
    ];
    for (const [rule, message] of cases) expect(() => validateStoppingRule(rule)).toThrow(message);
    expect(() =>
      validateStoppingRule({ kind: 'sprt', p0: 0.65, p1: 0.92, alpha: 0.05, beta: 0.05, nMax: 50 }),
    ).not.toThrow();
  });

  it('describes each rule in one deterministic paragraph with its numbers', () => {
    const fixed = describeStoppingRule({ kind: 'fixed', n: 20, threshold: 0.8, alpha: 0.05 });
    expect(fixed).toContain('run exactly 20 attempts');
    expect(fixed).toContain('PASS needs all 20 attempts to succeed; FAIL needs at most 12 successes of 20');
    expect(describeStoppingRule({ kind: 'fixed', n: 5, threshold: 0.8, alpha: 0.05 })).toContain(
      'no result of 5 attempts can PASS, because certifying 0.8 needs at least 14 attempts, all successes',
    );
    expect(describeStoppingRule({ kind: 'curtail', n: 50, threshold: 0.8, alpha: 0.05 })).toContain(
      'PASS needs at least 45 successes of 50',
    );
    const sprt = describeStoppingRule({ kind: 'sprt', p0: 0.65, p1: 0.92, alpha: 0.05, beta: 0.05, nMax: 50 });
    expect(sprt).toContain('ln((1 − β)/α) = +2.944');
    expect(sprt).toContain('The earliest PASS comes after 9 straight successes');
    const cs = describeStoppingRule({ kind: 'confidence-sequence', threshold: 0.8, alpha: 0.05, nMax: 50 });
    expect(cs).toContain('prior Beta(0.5, 0.5)');
    expect(cs).toContain('The earliest PASS comes after 24 straight successes');
    for (const text of [fixed, sprt, cs]) expect(text).not.toContain('\n');
    expect(describeStoppingRule({ kind: 'fixed', n: 20, threshold: 0.8, alpha: 0.05 })).toBe(fixed);
  });
});
