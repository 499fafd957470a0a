import { describe, expect, it } from 'vitest';
import { summarizeArm } from '../../../src/aggregate/index.js';
import { armReasonText } from '../../../src/report/index.js';
import { fingerprint, type AttemptRecord, type Verdict } from '../../../src/model/index.js';
import { aCase, aRubric, attempt, type AttemptFields } from '../builders.js';

const c = aCase();
const arm = { id: 'case', role: 'case' as const, group: null, case: c, caseFingerprint: fingerprint(c) };
const attempts = (spec: Partial<Record<Verdict, number>>, extra: AttemptFields = {}): AttemptRecord[] => {
  const out: AttemptRecord[] = [];
  for (const [verdict, count] of Object.entries(spec) as [Verdict, number][]) {
    for (let i = 0; i < count; i += 1) out.push(attempt('case', out.length, verdict, extra));
  }
  return out;
};
// The arm as decided, with its reason data in the words the Outcome keeps.
const summarize = (list: AttemptRecord[], rubric = aRubric(), cutShort = 0) => {
  const decided = summarizeArm({
    arm,
    attempts: list,
    rubric,
    planned: list.length + cutShort,
    notRun: { count: cutShort, reason: cutShort ? 'interrupted: SIGINT while this attempt ran; it was stopped' : '' },
    cutShort,
    sequential: null,
  });
  return { ...decided, reason: armReasonText(decided.why) };
};

describe('an arm the run cut short', () => {
  it('is UNKNOWN even when the attempts that ran would certify τ, and says what ran', () => {
    const cut = summarize(attempts({ PASS: 20 }), aRubric(), 5);
    expect(cut.verdict).toBe('UNKNOWN');
    expect(cut.why.rule).toEqual({ kind: 'cut-short', notRun: 5, attempts: 20, successes: 20 });
    expect(cut.reason).toBe(
      'cut short: 5 declared attempt(s) never ran (20/20 of those run passed), so no verdict can stand',
    );
    // Its rate and interval still describe the attempts that ran.
    expect(cut.rate).toBe(1);
    expect(summarize(attempts({ FAIL: 20 }), aRubric(), 1).verdict).toBe('UNKNOWN');
    expect(summarize([], aRubric(), 3).why.rule).toEqual({ kind: 'cut-short', notRun: 3, attempts: 0, successes: 0 });
  });

  it('stays CONTRADICTED when a claim the receipts deny was seen: that is evidence, not a rate', () => {
    const cut = summarize(attempts({ PASS: 3, CONTRADICTED: 1 }), aRubric(), 6);
    expect(cut.verdict).toBe('CONTRADICTED');
    expect(cut.why.rule.kind).toBe('cut-short');
  });
});

describe('arm verdict by exact one-sided bounds (τ = 0.8, α = 0.05)', () => {
  it('PASS only when the Clopper–Pearson lower bound clears τ (20/20)', () => {
    const arm20 = summarize(attempts({ PASS: 20 }));
    expect(arm20.verdict).toBe('PASS');
    expect(arm20.decision.lower).toBeCloseTo(0.8609, 3);
    expect(summarize(attempts({ PASS: 19, FAIL: 1 })).verdict).toBe('UNKNOWN');
  });
  it('FAIL when the upper bound falls below τ (12/20), UNKNOWN at 13/20', () => {
    expect(summarize(attempts({ PASS: 12, FAIL: 8 })).verdict).toBe('FAIL');
    expect(summarize(attempts({ PASS: 13, FAIL: 7 })).verdict).toBe('UNKNOWN');
  });
  it('counts CONTRADICTED as a failure, and any contradiction makes the arm CONTRADICTED', () => {
    expect(summarize(attempts({ PASS: 12, CONTRADICTED: 1, FAIL: 7 })).verdict).toBe('CONTRADICTED');
    const lied = summarize(attempts({ PASS: 19, CONTRADICTED: 1 }));
    expect(lied.verdict).toBe('CONTRADICTED');
    expect(lied.reason).toMatch(/1 attempt\(s\) claimed/);
  });
  it('says how many attempts would settle an UNKNOWN arm', () => {
    const small = summarize(attempts({ PASS: 5 }));
    expect(small.verdict).toBe('UNKNOWN');
    expect(small.decision.toSettle?.toPass).toBe(9);
    expect(small.reason).toMatch(/9 more passing/);
  });
  it('DISPUTED when disputed attempts swing the verdict, the common verdict when they do not', () => {
    expect(summarize(attempts({ PASS: 19, DISPUTED: 1 })).verdict).toBe('DISPUTED');
    expect(summarize(attempts({ PASS: 2, FAIL: 17, DISPUTED: 1 })).verdict).toBe('FAIL');
  });
  it('never imputes errors: under `bound` they keep the arm UNKNOWN when they could swing it', () => {
    const errored = attempts({ PASS: 18 }).concat(
      attempts({ UNKNOWN: 2 }, { status: 'subject_error' }).map((a, i) => ({ ...a, index: 18 + i })),
    );
    const bounded = summarize(errored);
    expect(bounded.verdict).toBe('UNKNOWN');
    expect(bounded.statuses.subject_error).toBe(2);
    expect(bounded.decision.attempts).toBe(20);
    expect(bounded.verdicts.FAIL).toBe(0);
    const excluded = summarize(errored, aRubric({ missingEvidence: 'exclude' }));
    expect(excluded.decision.attempts).toBe(18);
    expect(excluded.reason).toMatch(/2 subject_error: never imputed/);
  });
  it('a fully blocked arm is UNKNOWN with every attempt counted as blocked', () => {
    const blocked = summarize(attempts({ UNKNOWN: 3 }, { status: 'blocked' }));
    expect(blocked).toMatchObject({ verdict: 'UNKNOWN', reason: expect.stringMatching(/blocked/) });
    expect(blocked.statuses.blocked).toBe(3);
  });
  it('PARTIAL when every attempt meets the required criteria but misses an optional one (14/14)', () => {
    const partial = summarize(attempts({ PARTIAL: 14 }));
    expect(partial.verdict).toBe('PARTIAL');
    expect(partial.decision.successes).toBe(0);
    expect(partial.required).toMatchObject({ successes: 14, attempts: 14 });
    expect(partial.reason).toMatch(/14\/14 met every required criterion/);
  });
  it('PASS when the full-pass share certifies τ, FAIL only when even the required share is bounded below it', () => {
    expect(summarize(attempts({ PASS: 20 })).verdict).toBe('PASS');
    expect(summarize(attempts({ PASS: 12, PARTIAL: 8 })).verdict).toBe('PARTIAL');
    expect(summarize(attempts({ PARTIAL: 12, FAIL: 8 })).verdict).toBe('FAIL');
    expect(summarize(attempts({ PARTIAL: 13, FAIL: 7 })).verdict).toBe('UNKNOWN');
    expect(summarize(attempts({ PASS: 5, PARTIAL: 9 })).verdict).toBe('PARTIAL');
  });
  it('the rate and its interval use the decision denominator: 7 passes and 3 errors are 7/10, not 7/7', () => {
    const errored = attempts({ PASS: 7 }).concat(
      attempts({ UNKNOWN: 3 }, { status: 'subject_error' }).map((a, i) => ({ ...a, index: 7 + i })),
    );
    const s = summarize(errored);
    expect(s.decision).toMatchObject({ successes: 7, attempts: 10 });
    expect(s.rate).toBe(0.7);
    expect(s.wilson?.upper).toBeLessThan(1);
    expect(s.exclusions).toEqual([]);
  });
  it('under `exclude` the excluded attempts are recorded as exclusions beside the rate', () => {
    const errored = attempts({ PASS: 14 }).concat(
      attempts({ UNKNOWN: 6 }, { status: 'subject_error' }).map((a, i) => ({ ...a, index: 14 + i })),
    );
    const s = summarize(errored, aRubric({ missingEvidence: 'exclude' }));
    expect(s.rate).toBe(1);
    expect(s.decision.attempts).toBe(14);
    expect(s.exclusions).toHaveLength(6);
    expect(s.exclusions[0]).toMatchObject({ index: 14, status: 'subject_error' });
    expect(s.reason).toMatch(/6 excluded/);
  });
  it('an exact tie of the lower bound with τ is PASS, as attemptsToCertify promises (τ = .05, α = .05, 1/1)', () => {
    const tie = summarize(attempts({ PASS: 1 }), aRubric({ threshold: { rate: 0.05, alpha: 0.05 } }));
    expect(tie.verdict).toBe('PASS');
  });
  it('reports a descriptive Wilson interval beside the deciding exact bounds', () => {
    const s = summarize(attempts({ PASS: 15, FAIL: 5 }));
    expect(s.rate).toBe(0.75);
    expect(s.wilson?.lower).toBeCloseTo(0.5313, 3);
    expect(s.wilson?.upper).toBeCloseTo(0.8881, 3);
  });
});
