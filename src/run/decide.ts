import type { ArmSummary, AttemptRecord, Rubric, TrialJudgment, TrialSuite } from '../model/index.js';
import { type DecidedArm, judgeTrial, summarizeArm } from '../aggregate/index.js';
import { armReasonText, trialReasonText } from '../report/reasons.js';
import { judgeStrayErrors } from '../aggregate/stray-errors.js';
import { strayErrorsText } from '../report/stray-errors-text.js';
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
  /** Of an arm's attempts, those that should have run but did not because the run was cut short. */
  cutShort: (arm: string) => number;
  /** Errors raised outside any attempt's awaited call that could not be tied to one attempt (run/stray-errors). */
  strayErrors: readonly string[];
}

/**
 * Decide a trial from its attempt records: each arm's verdict under the declared threshold and stopping rule, then
 * the trial's verdict over its arms. The one decision both a run and a re-judgment make, so they cannot drift apart.
 * The decisions come as data; their reasons are put in words here, once, by report/reasons.ts.
 */
export function decideTrial(input: TrialDecisionInput): { arms: ArmSummary[]; judgment: TrialJudgment } {
  const { suite, rubric } = input;
  const rule = stoppingRuleFor(suite, rubric);
  // Grouped once: filtering every attempt for each arm grew with attempts × arms (a data-driven suite of 10,000 rows).
  const byArm = new Map<string, AttemptRecord[]>(suite.arms.map((arm) => [arm.id, []]));
  for (const attempt of input.attempts) byArm.get(attempt.arm)?.push(attempt);
  const decided = suite.arms.map((arm) => {
    const records = (byArm.get(arm.id) ?? []).sort((a, b) => a.index - b.index);
    return summarizeArm({
      arm,
      attempts: records,
      rubric,
      planned: suite.repeat.n,
      notRun: input.notRun(arm.id),
      cutShort: input.cutShort(arm.id),
      sequential: sequentialFor(rule, records),
    });
  });
  const cutShort = suite.arms.reduce((sum, arm) => sum + input.cutShort(arm.id), 0);
  const trial = judgeTrial({ suite, rubric, arms: decided, blocked: input.blocked, cutShort });
  const arms = decided.map(withReason);
  const reason = trialReasonText(trial.why, trial.judgment, decided);
  const judgment = {
    ...judgeStrayErrors(trial.judgment, input.strayErrors),
    reason: input.strayErrors.length > 0 ? strayErrorsText(input.strayErrors, reason) : reason,
  };
  return { arms, judgment };
}

/**
 * An arm's summary with its reason in words, written out member by member: a spread followed by a new member made V8
 * build a hidden class of its own for every arm (a 50,000-row suite's worker held 45 MB of them, and each took a
 * microsecond or two to make).
 */
function withReason(arm: DecidedArm): ArmSummary {
  return {
    arm: arm.arm,
    role: arm.role,
    planned: arm.planned,
    run: arm.run,
    notRun: arm.notRun,
    statuses: arm.statuses,
    verdicts: arm.verdicts,
    rate: arm.rate,
    wilson: arm.wilson,
    decision: arm.decision,
    required: arm.required,
    exclusions: arm.exclusions,
    verdict: arm.verdict,
    why: arm.why,
    refusal: arm.refusal,
    labels: arm.labels,
    pressure: arm.pressure,
    scores: arm.scores,
    reason: armReasonText(arm.why),
  };
}
