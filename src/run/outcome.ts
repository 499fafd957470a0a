import {
  costBreakdownOf,
  costOf,
  fingerprint,
  OUTCOME_SCHEMA,
  type ArmSummary,
  type AttemptRecord,
  type CompositionSuite,
  type Outcome,
  type RegistrationCheck,
  type Rubric,
  type TrialJudgment,
  type TrialSuite,
} from '../model/index.js';
import {
  decideSuiteRule,
  judgeBySuiteRule,
  summarizeCompositions,
  summarizeSuite,
  trapGroups,
} from '../aggregate/index.js';
import { capabilitiesAndFindings, coverageTable } from '../evaluate/index.js';
import { withExecutionFindings } from '../evaluate/execution-findings.js';
import { attemptsToCertify } from '../statistics/index.js';
import { concealHoldout } from './holdout.js';
import { outcomeId } from './outcome-id.js';
import type { StreamedAttempts } from './attempt-stream.js';
import type { TrialPlan } from './run-trial.js';
import { policyChangesText } from '../report/policy-changes-text.js';
import { suiteRuleReasonText } from '../report/reasons.js';

export interface OutcomeParts {
  plan: Pick<TrialPlan, 'suite' | 'rubric' | 'environment' | 'prices' | 'registration' | 'holdout'> & {
    evaluators: readonly { record: Outcome['records']['evaluators'][number] }[];
  };
  attempts: readonly AttemptRecord[];
  /**
   * When the attempts were written out as they finished (run/attempt-stream): their file and digests. `attempts` then
   * holds their lean copies, which decide and total but are not stored; the Outcome holds none and names the file.
   */
  streamed?: StreamedAttempts | null;
  arms: readonly ArmSummary[];
  judgment: TrialJudgment;
  execution: Outcome['execution'];
  /** The graph the attempts ran through when the subject is a Composition Suite; absent or null otherwise. */
  compositionSuite?: CompositionSuite | null;
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil(p * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? null;
}

/**
 * Warnings a trial's declaration deserves before anything runs (e.g. an n that cannot certify PASS). A suite decided by
 * its declared rule (`summary.rule`, `summary.repeated.rule`) is not decided row by row, so its rows' n is no concern.
 */
export function declarationWarnings(suite: TrialSuite, rubric: Rubric): string[] {
  const declared = suite.aggregation.summary;
  if (declared && ((declared.rule ?? null) !== null || (declared.repeated?.rule ?? null) !== null)) return [];
  const { rate, alpha } = rubric.threshold;
  const needed = attemptsToCertify(rate, alpha);
  if (suite.repeat.n < needed && suite.repeat.stop.kind !== 'sprt') {
    return [
      `n=${suite.repeat.n} cannot certify PASS at τ=${rate}, α=${alpha}: even all passes leave the exact lower bound below τ; ${needed} all-pass attempts are needed`,
    ];
  }
  return [];
}

/** The registrations check in words, when the declared policy changed after results were seen. */
export function registrationWarning(check: RegistrationCheck | null | undefined): string | null {
  const what = check?.changes?.length ? ` (${policyChangesText(check.changes)})` : '';
  if (check?.status === 'changed')
    return `policy changed after results were seen${what}: the repetition, stopping, threshold or aggregation now declared (${check.policy.slice(7, 19)}) differs from the one registered with Outcome ${check.earlierOutcome} (${check.registeredPolicy?.slice(7, 19)}); run with RIDDLE_ACCEPT_POLICY=1 to accept the new policy on purpose, or declare the registered one again`;
  if (check?.status === 'accepted')
    return `policy changed after results were seen and accepted on purpose (RIDDLE_ACCEPT_POLICY=1)${what}: the earlier policy was registered with Outcome ${check.earlierOutcome}`;
  return null;
}

/** Everything the Outcome should warn about: the declaration, and attempts that were not independent samples. */
function outcomeWarnings(plan: Pick<TrialPlan, 'suite' | 'rubric' | 'environment' | 'registration'>): string[] {
  const registration = registrationWarning(plan.registration);
  const warnings = [...(registration ? [registration] : []), ...declarationWarnings(plan.suite, plan.rubric)];
  if (!plan.environment.independentAttempts) {
    warnings.push(
      'attempts are not independent samples (replayed or cached subject): intervals describe the recording, not the subject',
    );
  }
  return warnings;
}

/**
 * Pin the records, total the cost and latency, and put the Outcome together; a holdout run not revealed is assembled
 * as verdicts and rates only (run/holdout).
 */
export function assembleOutcome(parts: OutcomeParts): Outcome {
  const { suite, rubric, environment } = parts.plan;
  const evaluators = parts.plan.evaluators.map((e) => e.record);
  const pinned = {
    suite: fingerprint(suite),
    cases: Object.fromEntries(suite.arms.map((arm) => [arm.id, arm.caseFingerprint])),
    rubric: fingerprint(rubric),
    evaluators: evaluators.map((e) => fingerprint(e)),
    environment: fingerprint(environment),
  };
  const prices = parts.plan.prices ?? {};
  const receipts = parts.attempts.flatMap((a) => a.observation?.receipts ?? []);
  const durations = parts.attempts
    .filter((a) => a.status !== 'blocked')
    .map((a) => a.durationMs)
    .sort((a, b) => a - b);
  const records = { suite, rubric, evaluators, environment };
  const tables = suite.aggregation.summary;
  const source = { records, attempts: [...parts.attempts] };
  const suiteSummary = tables ? summarizeSuite(source, tables) : null;
  // A declared suite rule decides the trial from the suite's rates, not from its rows one by one.
  const suiteRule = tables && suiteSummary ? decideSuiteRule(source, tables, suiteSummary) : null;
  const judgment = judgeBySuiteRule(parts.judgment, suiteRule, suite.aggregation.passOn, suiteRuleReasonText);
  const compositions = summarizeCompositions(
    parts.compositionSuite ?? null,
    parts.attempts,
    rubric.threshold.rate,
    rubric.threshold.alpha,
  );
  const routed = withExecutionFindings(
    capabilitiesAndFindings({
      compositions,
      pinned,
      records,
      attempts: [...parts.attempts],
      arms: [...parts.arms],
      judgment,
      suiteRule,
    }),
    parts.execution,
  );
  const outcome: Omit<Outcome, 'id'> = {
    schema: OUTCOME_SCHEMA,
    setup: fingerprint(pinned),
    trial: { id: suite.id, name: suite.name, file: suite.file },
    pinned,
    records,
    execution: parts.execution,
    attempts: [...parts.attempts],
    attemptsFile: null,
    arms: [...parts.arms],
    judgment,
    suite: suiteSummary,
    suiteRule,
    coverage: coverageTable(rubric, pinned.rubric, environment.subject.revision, parts.attempts),
    capabilities: routed.capabilities,
    findings: routed.findings,
    traps: trapGroups(suite, parts.attempts, parts.arms),
    compositions,
    cost: {
      ...costOf(receipts, prices),
      ...costBreakdownOf(parts.attempts, (a) => a.observation?.receipts ?? [], prices),
    },
    latency: {
      meanMs: durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : null,
      p50Ms: percentile(durations, 0.5),
      p95Ms: percentile(durations, 0.95),
    },
    warnings: outcomeWarnings(parts.plan),
    registration: parts.plan.registration ?? null,
  };
  const reported = parts.plan.holdout && !parts.plan.holdout.revealed ? concealHoldout(outcome) : outcome;
  // Attempts written out as they finished: the Outcome names their file and its id takes them by their digests.
  const stored = parts.streamed ? { ...reported, attempts: [], attemptsFile: parts.streamed.file } : reported;
  const { schema, ...rest } = stored;
  return { schema, id: outcomeId(stored, parts.streamed?.digests), ...rest };
}
