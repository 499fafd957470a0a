import { describe, expect, it } from 'vitest';
import { passHatKRow, summarizeRepeated } from '../../../src/aggregate/repeated-suite.js';
import type { SuiteSource } from '../../../src/aggregate/suite.js';
import type { AttemptRecord, ClaimCheck, CriterionFinding, Environment, Rubric } from '../../../src/model/index.js';
import { renderSuiteTerminal } from '../../../src/report/suite-table.js';
import { aCase, anEnvironment, aRubric, aSuite, attempt } from '../builders.js';

const finding = (evaluator: string, result: 'met' | 'unmet' | 'unknown'): CriterionFinding => ({
  criterion: 'solved',
  evaluator,
  result,
  label: null,
  grade: result === 'unknown' ? null : 'receipt',
  evidence: [],
  note: `${evaluator} says ${result}`,
  trusted: true,
  independent: true,
  adjudicator: evaluator === 'reward',
  judge: null,
  score: null,
});

const contradiction: ClaimCheck = {
  claim: {
    action: 'completed',
    target: 'cancel_reservation',
    text: 'It has been cancelled.',
    round: 2,
    source: 'extracted',
    extractor: 'x',
  },
  status: 'contradicted',
  receipt: null,
  note: 'claimed done, but no cancel_reservation was requested by round 2',
};

/**
 * Successes out of 4 per task, as the reference scored them: the τ-bench pattern in small. Task t-u has one attempt
 * the reference could not judge.
 */
const SCORES: Record<string, ('met' | 'unmet' | 'unknown')[]> = {
  't-0': ['unmet', 'unmet', 'unmet', 'unmet'],
  't-1': ['met', 'unmet', 'unmet', 'unmet'],
  't-2': ['met', 'met', 'unmet', 'unmet'],
  't-4': ['met', 'met', 'met', 'met'],
  't-u': ['met', 'met', 'unknown', 'met'],
};

function source(environment: Partial<Environment> = {}, rubric: Partial<Rubric> = {}): SuiteSource {
  const ids = Object.keys(SCORES);
  const attempts: AttemptRecord[] = ids.flatMap((id) =>
    (SCORES[id] ?? []).map((score, index) =>
      attempt(id, index, id === 't-2' && index === 1 ? 'CONTRADICTED' : score === 'met' ? 'PASS' : 'FAIL', {
        // The matcher disagrees once: it calls t-1's first attempt unmet.
        findings: [finding('reward', score), finding('matcher', id === 't-1' && index === 0 ? 'unmet' : score)],
        claims: id === 't-2' && index === 1 ? [contradiction] : [],
      }),
    ),
  );
  return {
    records: {
      suite: aSuite(
        ids.map((id) => ({ id, role: 'case' as const, c: aCase({ id }) })),
        { repeat: { n: 4, order: 'sequential', seed: 1, concurrency: 1, stop: { kind: 'fixed' } } },
      ),
      rubric: aRubric(rubric),
      evaluators: [],
      environment: anEnvironment({
        subject: { kind: 'replay', name: 'agent', revision: 'r', revisionSource: 'declared' },
        ...environment,
      }),
    },
    attempts,
  } as SuiteSource;
}

const summarize = (environment: Partial<Environment> = {}, k = 4, rubric: Partial<Rubric> = {}) =>
  summarizeRepeated(source(environment, rubric), {
    criterion: 'solved',
    reference: 'reward',
    alpha: 0.05,
    options: { rule: { k, atLeast: 0.5 } },
  });

describe('summarizeRepeated', () => {
  it('pass^k is the mean over tasks of C(c,k)/C(n,k); under `exclude`, each task on its judged attempts', () => {
    const summary = summarize({}, 4, { missingEvidence: 'exclude' });
    // t-u has 3 judged attempts, all met: it counts for k ≤ 3 with n = 3.
    const expected = [
      (0 + 1 / 4 + 2 / 4 + 1 + 1) / 5,
      (0 + 0 + 1 / 6 + 1 + 1) / 5,
      (0 + 0 + 0 + 1 + 1) / 5,
      (0 + 0 + 0 + 1) / 4,
    ];
    expect(summary.passHatK.map((r) => r.value)).toEqual(expected.map((v) => expect.closeTo(v, 12)));
    expect(summary.passHatK.map((r) => r.cases)).toEqual([5, 5, 5, 4]);
    expect(summary.passHatK.map((r) => r.method)).toEqual(Array(4).fill('korn-graubard'));
    for (const row of summary.passHatK) {
      expect(row.lower).toBeLessThan(row.value ?? Number.NaN);
      expect(row.upper).toBeGreaterThan(row.value ?? Number.NaN);
      // The attempt without a verdict is labelled as excluded in every row.
      expect(row.withoutVerdict).toEqual({ policy: 'exclude', attempts: 1, cases: 1, valueIfPassing: null });
    }
  });

  it('under `bound` (the default) the attempt without a verdict stays in its task: held as failing and as passing', () => {
    const summary = summarize();
    // t-u keeps n = 4: 3 of 4 held as failing, 4 of 4 held as passing.
    const failing = [
      (0 + 1 / 4 + 2 / 4 + 1 + 3 / 4) / 5,
      (0 + 0 + 1 / 6 + 1 + 3 / 6) / 5,
      (0 + 0 + 0 + 1 + 1 / 4) / 5,
      (0 + 0 + 0 + 1 + 0) / 5,
    ];
    const passing = [(0 + 1 / 4 + 2 / 4 + 1 + 1) / 5, (0 + 0 + 1 / 6 + 1 + 1) / 5, (0 + 0 + 0 + 1 + 1) / 5, 2 / 5];
    expect(summary.passHatK.map((r) => r.value)).toEqual(failing.map((v) => expect.closeTo(v, 12)));
    expect(summary.passHatK.map((r) => r.withoutVerdict?.valueIfPassing)).toEqual(
      passing.map((v) => expect.closeTo(v, 12)),
    );
    expect(summary.passHatK.map((r) => r.cases)).toEqual([5, 5, 5, 5]);
    expect(summary.passHatK.map((r) => r.withoutVerdict?.attempts)).toEqual([1, 1, 1, 1]);
  });

  it('spreads complete tasks by successes and lists the incomplete one, never imputing it', () => {
    const summary = summarize();
    expect(summary.distribution).toEqual([
      { successes: 0, cases: 1 },
      { successes: 1, cases: 1 },
      { successes: 2, cases: 1 },
      { successes: 3, cases: 0 },
      { successes: 4, cases: 1 },
    ]);
    expect(summary.incomplete).toEqual([{ arm: 't-u', judged: 3 }]);
  });

  it('decides the declared rule on the interval, and counts contradicted attempts and disagreements', () => {
    const summary = summarize();
    expect(summary.verdict).toMatchObject({ verdict: 'UNKNOWN', rule: { k: 4, atLeast: 0.5 } });
    expect(summarize({}, 1).verdict?.verdict).toBe('UNKNOWN');
    expect(summary.contradicted).toEqual({
      attempts: 1,
      cases: 1,
      claims: 1,
      list: [{ arm: 't-2', attempt: 1, claim: 'It has been cancelled.', note: contradiction.note }],
    });
    expect(summary.disagreements).toEqual([
      { evaluator: 'matcher', arm: 't-1', attempt: 0, reference: 'met', finding: 'unmet', note: 'matcher says unmet' },
    ]);
  });

  it('says what the attempts are: recorded independent samples, one output served again, or live runs', () => {
    expect(summarize().independence).toBe('recorded-samples');
    expect(summarize({ independentAttempts: false }).independence).toBe('not-independent');
    expect(
      summarize({ subject: { kind: 'function', name: 'a', revision: 'r', revisionSource: 'declared' } }).independence,
    ).toBe('independent');
  });
});

describe('passHatKRow', () => {
  const judged = (met: number, n: number) => ({ met, judged: n, run: n });

  it('reproduces the τ-bench gpt-4o airline leaderboard row from its successes per task', () => {
    // 14, 12, 10, 4 and 10 tasks with 0…4 successes of 4 (historical_trajectories/gpt-4o-airline.json).
    const tasks = [14, 12, 10, 4, 10].flatMap((count, successes) =>
      Array.from({ length: count }, () => judged(successes, 4)),
    );
    for (const policy of ['bound', 'exclude'] as const) {
      const row = [1, 2, 3, 4].map((k) => passHatKRow(tasks, k, 0.05, policy).value?.toFixed(3));
      expect(row).toEqual(['0.420', '0.273', '0.220', '0.200']);
    }
  });

  it('a decided FAIL: every interval bound below the threshold', () => {
    const none = Array.from({ length: 30 }, () => judged(0, 4));
    const row = passHatKRow(none, 4, 0.05, 'bound');
    expect(row).toMatchObject({ value: 0, lower: 0, method: 'korn-graubard' });
    expect(row.upper).toBeLessThan(0.5);
  });

  // The audit's repro: 100 tasks, n = 4, tasks 0–69 crash on every attempt, the other 30 always solved.
  const crashing = Array.from({ length: 100 }, (_, i) => (i < 70 ? { met: 0, judged: 0, run: 4 } : judged(4, 4)));

  it('keeps tasks that always crash in the denominator under `bound`: pass^4 spans 0.3 to 1, never 1 on 30 tasks', () => {
    const row = passHatKRow(crashing, 4, 0.05, 'bound');
    expect(row.cases).toBe(100);
    expect(row.value).toBeCloseTo(0.3, 12);
    expect(row.withoutVerdict).toEqual({ policy: 'bound', attempts: 280, cases: 70, valueIfPassing: 1 });
    expect(row.lower).toBeLessThan(0.3);
    expect(row.upper).toBe(1);
  });

  it('under `exclude` they leave it, counted as excluded', () => {
    const row = passHatKRow(crashing, 4, 0.05, 'exclude');
    expect(row).toMatchObject({ cases: 30, value: 1, withoutVerdict: { policy: 'exclude', attempts: 280, cases: 70 } });
  });
});

describe('suite tables', () => {
  it('render pass^k, the spread, the verdict, contradicted claims and disagreements', () => {
    const summary = summarize();
    const text = renderSuiteTerminal([
      {
        dataset: 'tau',
        subject: { name: 'agent', revision: 'r' },
        criterion: 'solved',
        vocabulary: ['met', 'unmet'],
        refusalCriterion: null,
        groupBy: [],
        independentAttempts: true,
        confidence: 0.95,
        table: [],
        refusal: null,
        pairs: [],
        disputes: null,
        reference: { kind: 'evaluator', evaluator: 'reward' },
        evaluators: [],
        repeated: summary,
      },
    ]);
    expect(text).toContain('pass^4');
    expect(text).toContain(`${summary.passHatK[0]?.value?.toFixed(3)} [`);
    expect(text).toContain('Cases by successes out of n attempts');
    expect(text).toContain('pass^4 ≥ 0.5  UNKNOWN');
    expect(text).toContain('It has been cancelled.');
    expect(text).toContain('matcher says unmet');
    expect(text).toContain('each an independent sample of the original subject');
  });
});
