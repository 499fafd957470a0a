import type { ArmSummary, AttemptRecord, Rubric, TrialJudgment, TrialSuite } from '../model/index.js';
import { judgeTrial, summarizeArm } from '../aggregate/index.js';
import { sequentialFor, stoppingRuleFor } from './stopping.js';

export interface TrialDecisionInput {
  suite: TrialSuite;
  rubric: Rubric;
  /** Every attempt record of the trial, in any order. */
  attempts: readonly AttemptRecord[];
  /** Attempts of an arm that never ran, with why (a stopping rule, a cut-short run). */
  notRun: (arm: string) => { count: number; reason: string };
  /** A declared dependency that blocked the trial, in words, or null. */
  blocked: string | null;
  /** Attempts that should have run but did not because the run was cut short. */
  cutShort: number;
}

/**
 * Decide a trial from its attempt records: each arm's verdict under the declared threshold and stopping rule, then
 * the trial's verdict over its arms. The one decision both a run and a re-judgment make, so they cannot drift apart.
 */
export function decideTrial(input: TrialDecisionInput): { arms: ArmSummary[]; judgment: TrialJudgment } {
  const { suite, rubric } = input;
  const rule = stoppingRuleFor(suite, rubric);
  const arms = suite.arms.map((arm) => {
    const records = input.attempts.filter((a) => a.arm === arm.id).sort((a, b) => a.index - b.index);
    return summarizeArm({
      arm,
      attempts: records,
      rubric,
      planned: suite.repeat.n,
      notRun: input.notRun(arm.id),
      sequential: sequentialFor(rule, records),
    });
  });
  const judgment = judgeTrial({ suite, rubric, arms, blocked: input.blocked, cutShort: input.cutShort });
  return { arms, judgment };
}
