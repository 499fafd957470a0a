import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { mechanicalEvaluator } from '../../../src/evaluate/index.js';
import { decideTrial, rejudgeOutcome, resolveTrial, runTrial } from '../../../src/run/index.js';
import { attemptReasonText, readOutcomeFile } from '../../../src/report/index.js';
import { anEnvironment } from '../builders.js';
import { hiddenClassCount } from '../../support/hidden-class.js';

const rubric = { criteria: { answers: { description: 'answers yes', needs: 'text' as const } } };

async function ranTrial(stop: 'fixed' | 'curtail') {
  let call = 0;
  const resolved = resolveTrial(
    { name: 'decided once', file: 'unit.test.ts', path: [] },
    {
      // Every third attempt fails, so the arms are not trivially decided.
      subject: () => (call++ % 3 === 2 ? 'no' : 'yes'),
      rubric,
      checks: {
        answers: (o: { reply: unknown }) => {
          vitestExpect(String(o.reply)).toMatch(/^yes/);
        },
      },
      case: { input: 'a', expect: ['answers'] },
      control: { input: 'b', expect: ['answers'] },
      repeat: { n: 12, stop },
    },
  );
  const outcome = await runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
  return { resolved, outcome };
}

describe('decideTrial', () => {
  it('gives a run and a re-judgment of its evidence the same arms and judgment', async () => {
    for (const stop of ['fixed', 'curtail'] as const) {
      const { resolved, outcome } = await ranTrial(stop);
      const rejudged = await rejudgeOutcome(outcome, { evaluators: resolved.evaluators, expect: vitestExpect });
      expect(rejudged.arms).toEqual(outcome.arms);
      expect(rejudged.judgment).toEqual(outcome.judgment);
      const decided = decideTrial({
        suite: outcome.records.suite,
        rubric: outcome.records.rubric,
        attempts: outcome.attempts,
        notRun: (arm) => outcome.arms.find((a) => a.arm === arm)?.notRun ?? { count: 0, reason: '' },
        blocked: null,
        cutShort: () => 0,
        strayErrors: [],
      });
      expect(decided).toEqual({ arms: outcome.arms, judgment: outcome.judgment });
    }
  });

  it('gives every arm one hidden class (a suite of thousands of rows held one per arm, 45 MB at 50,000)', async () => {
    const { outcome } = await ranTrial('fixed');
    const { suite } = outcome.records;
    const rows = Array.from({ length: 40 }, (_, i) => ({ ...suite.arms[i % 2], id: `row-${i}` }));
    const { arms } = decideTrial({
      suite: { ...suite, arms: rows as typeof suite.arms },
      rubric: outcome.records.rubric,
      attempts: outcome.attempts.map((a, i) => ({ ...a, arm: `row-${i % 40}` })),
      notRun: () => ({ count: 0, reason: '' }),
      blocked: null,
      cutShort: () => 0,
      strayErrors: [],
    });
    expect(arms).toHaveLength(40);
    expect(hiddenClassCount(arms)).toBeLessThanOrEqual(2);
  });
});

describe('re-judging a trial the run cut short', () => {
  const answersOk = (id: string) =>
    mechanicalEvaluator({
      id,
      revision: 'r1',
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toBe('ok') },
    });

  it('decides the arms of a v4 Outcome anew: an arm no stopping rule ended is cut short, not PASS', async () => {
    // Written by riddle.outcome/4 (fixtures/artifacts/v4/cut-short): 20 of 40 attempts ran and passed, then Ctrl-C.
    const file = path.resolve(
      'fixtures/artifacts/v4/cut-short/outcomes/a-steady-subject-cut-short-after-its-twentieth-attempt-37128a0970fa.json',
    );
    const stored = readOutcomeFile(file);
    expect(stored.arms[0]).toMatchObject({ verdict: 'PASS', run: 20, notRun: { count: 20 } });
    const evaluator = answersOk(stored.records.evaluators[0]?.id ?? '');
    const rejudged = await rejudgeOutcome(stored, { evaluators: [evaluator], expect: vitestExpect });
    expect(rejudged.arms[0]?.verdict).toBe('UNKNOWN');
    expect(rejudged.arms[0]?.why?.rule).toEqual({ kind: 'cut-short', notRun: 20, attempts: 20, successes: 20 });
    expect(rejudged.judgment).toMatchObject({ verdict: 'UNKNOWN', incomplete: true });
    expect(rejudged.judgment.reason).toBe('incomplete: 20 declared attempt(s) never ran, so no verdict can stand');
  });

  it('gives a v5 Outcome cut short the same arms and judgment when re-judged', async () => {
    const controller = new AbortController();
    let calls = 0;
    const resolved = resolveTrial(
      { name: 'cut and re-judged', file: 'unit.test.ts', path: [] },
      {
        subject: () => {
          calls += 1;
          if (calls === 9) controller.abort();
          return 'ok';
        },
        rubric,
        evaluators: [answersOk('answers ok')],
        case: { input: 'a', expect: ['answers'] },
        control: { input: 'b', expect: ['answers'] },
        repeat: { n: 12, stop: 'fixed' },
      },
    );
    const outcome = await runTrial(
      { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
      { clock: { now: () => 0 }, expect: vitestExpect, signal: controller.signal },
    );
    expect(outcome.arms.map((a) => a.why?.rule.kind)).toEqual(['cut-short', 'cut-short']);
    const rejudged = await rejudgeOutcome(outcome, { evaluators: resolved.evaluators, expect: vitestExpect });
    expect(rejudged.arms).toEqual(outcome.arms);
    expect(rejudged.judgment).toEqual(outcome.judgment);
  });
});

describe('attempt reasons', () => {
  it('are recorded as data with their words, and re-judging the evidence gives the same', async () => {
    const { resolved, outcome } = await ranTrial('fixed');
    expect(new Set(outcome.attempts.map((a) => a.why?.kind))).toEqual(new Set(['passed', 'failed']));
    for (const attempt of outcome.attempts) {
      expect(attempt.why).not.toBeNull();
      if (attempt.why) expect(attemptReasonText(attempt.why)).toBe(attempt.reason);
    }
    const rejudged = await rejudgeOutcome(outcome, { evaluators: resolved.evaluators, expect: vitestExpect });
    expect(rejudged.attempts.map((a) => [a.why, a.reason])).toEqual(outcome.attempts.map((a) => [a.why, a.reason]));
  });
});
