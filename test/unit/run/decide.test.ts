import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { decideTrial, rejudgeOutcome, resolveTrial, runTrial } from '../../../src/run/index.js';
import { attemptReasonText } from '../../../src/report/index.js';
import { anEnvironment } from '../builders.js';

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
        cutShort: 0,
        strayErrors: [],
      });
      expect(decided).toEqual({ arms: outcome.arms, judgment: outcome.judgment });
    }
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
