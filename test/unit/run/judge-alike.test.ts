import { describe, expect, it } from 'vitest';
import { mechanicalEvaluator, type CriterionCheck } from '../../../src/evaluate/index.js';
import type { Case, Rubric } from '../../../src/model/index.js';
import { judgeObservation } from '../../../src/run/judge.js';
import { criterion, observation, rubric, testCase } from '../evaluate/helpers.js';

const answers: CriterionCheck = (o) => {
  expect(String(o.reply)).toMatch(/^yes/);
};

function judge(reply: string, armCase: Case, rubricUsed: Rubric) {
  return judgeObservation({
    observation: observation({ reply }),
    case: armCase,
    arm: 'case',
    attempt: 0,
    rubric: rubricUsed,
    evaluators: [mechanicalEvaluator({ id: 'answers', revision: '1', checks: { answers } })],
    expect: () => undefined,
    claims: {},
  });
}

describe('an attempt that finds what the attempt before found', () => {
  it('takes its criteria and decision as they were, and keeps the findings before in place of its equal ones', async () => {
    const rubricUsed = rubric(criterion('answers', { needs: 'text' }));
    const expecting = testCase(['answers']);
    const first = await judge('yes', expecting, rubricUsed);
    const second = await judge('yes', expecting, rubricUsed);
    expect(second.verdict).toBe('PASS');
    expect(second.criteria).toBe(first.criteria);
    expect(second.findings).toBe(first.findings);
    expect(second.why).toBe(first.why);
  });

  it('decides again for another Case, for findings that differ, and for claims checked', async () => {
    const rubricUsed = rubric(criterion('answers', { needs: 'text' }));
    const expecting = testCase(['answers']);
    const forbidding = testCase([], ['answers']);
    // Arms of one trial share the rubric: the same findings meet a criterion one arm expects and another forbids.
    const expected = await judge('yes', expecting, rubricUsed);
    const forbidden = await judge('yes', forbidding, rubricUsed);
    expect([expected.verdict, forbidden.verdict]).toEqual(['PASS', 'FAIL']);
    expect(forbidden.criteria).toBe(expected.criteria);
    const unmet = await judge('no', expecting, rubricUsed);
    expect(unmet.verdict).toBe('FAIL');
    expect(unmet.criteria[0]?.result).toBe('unmet');
    const metAgain = await judge('yes', expecting, rubricUsed);
    expect(metAgain.verdict).toBe('PASS');
    expect(metAgain.criteria[0]?.result).toBe('met');
    // Another check message is another finding: nothing of the judgment before is taken.
    const otherNo = await judge('nope', expecting, rubricUsed);
    expect(otherNo.findings[0]?.note).toMatch(/'nope'/);
    expect(otherNo.criteria).not.toBe(unmet.criteria);
  });
});
