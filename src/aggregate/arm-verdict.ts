import {
  ATTEMPT_STATUSES,
  VERDICTS,
  type Arm,
  type ArmDecision,
  type ArmReason,
  type ArmRule,
  type ArmSummary,
  type AttemptRecord,
  type AttemptStatus,
  type Rubric,
  type Verdict,
} from '../model/index.js';
import { attemptsToSettle, binomialVerdict, clopperPearson, wilson } from '../statistics/index.js';
import { armPressure } from './pressure.js';
import { armScores } from './score-distribution.js';

/** How a sequential stopping rule ended the arm, when one decided it instead of the fixed-n bound. */
export interface SequentialDecision {
  method: 'sprt' | 'confidence-sequence';
  decision: 'pass' | 'fail' | 'inconclusive';
  alpha: number;
}

export interface ArmInput {
  arm: Arm;
  attempts: readonly AttemptRecord[];
  rubric: Rubric;
  planned: number;
  notRun: { count: number; reason: string };
  /** Of `notRun`, the attempts the run's cut (not a declared stopping rule) kept from running. */
  cutShort: number;
  sequential: SequentialDecision | null;
}

type RateVerdict = 'PASS' | 'FAIL' | 'UNKNOWN';

/** An arm as decided: its summary with the reason as data only (`why`); report/reasons.ts puts it in words. */
export type DecidedArm = Omit<ArmSummary, 'reason' | 'why'> & { why: ArmReason };

function countBy<K extends string>(keys: readonly K[], values: readonly K[]): Record<K, number> {
  const counts = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  // Indexed: run once an arm, unoptimised, where for…of makes an iterator result for every attempt.
  for (let i = 0; i < values.length; i += 1) counts[values[i] as K] += 1;
  return counts;
}

/** PASS iff the one-sided exact lower bound reaches τ, FAIL iff the upper bound is below it (ties: tie.ts). */
function decide(successes: number, attempts: number, rubric: Rubric): RateVerdict {
  if (attempts === 0) return 'UNKNOWN';
  const verdict = binomialVerdict(successes, attempts, rubric.threshold.rate, rubric.threshold.alpha);
  return verdict === 'pass' ? 'PASS' : verdict === 'fail' ? 'FAIL' : 'UNKNOWN';
}

/**
 * The arm rule on two shares of the same attempts (DESIGN.md, contract 8): PASS when the fully passing share
 * certifies τ; PARTIAL when only the share meeting every required criterion does; FAIL when even that share is
 * bounded below τ; UNKNOWN otherwise.
 */
function armRule(full: number, required: number, attempts: number, rubric: Rubric): 'PASS' | 'PARTIAL' | RateVerdict {
  if (decide(full, attempts, rubric) === 'PASS') return 'PASS';
  const requiredVerdict = decide(required, attempts, rubric);
  return requiredVerdict === 'PASS' ? 'PARTIAL' : requiredVerdict;
}

/** How an attempt is listed among its arm's exclusions under the `exclude` policy: when it has no verdict; else null. */
export function exclusionOf(
  attempt: Pick<AttemptRecord, 'index' | 'status' | 'verdict' | 'reason'>,
): ArmSummary['exclusions'][number] | null {
  return attempt.verdict === 'UNKNOWN'
    ? { index: attempt.index, status: attempt.status, reason: attempt.reason }
    : null;
}

/**
 * An arm's distribution and verdict, by the arm rule above. An attempt passes fully when PASS; it meets every
 * required criterion when PASS or PARTIAL; FAIL and CONTRADICTED attempts do neither. DISPUTED attempts are counted
 * as failing and again as passing: if the two verdicts differ the arm is DISPUTED. Attempts without a verdict
 * (errors, blocks, uncovered criteria) are never imputed: under the Rubric's `bound` policy they stay in the
 * denominator and are bounded the same way (UNKNOWN when they could swing it), under `exclude` they leave it and
 * are listed as exclusions. Any contradicted attempt makes the arm CONTRADICTED: a false claim of success is not
 * averaged away. The arm's rate and Wilson interval use the decision's denominator; the reason is returned as data
 * (`why`, rendered by report/reasons.ts). An arm the run cut short is UNKNOWN whatever its attempts so far show
 * (DESIGN.md: anything that cuts a trial short leaves it incomplete), CONTRADICTED still when a claim was contradicted.
 */
export function summarizeArm(input: ArmInput): DecidedArm {
  const { rubric, attempts } = input;
  const statuses = countBy<AttemptStatus>(
    ATTEMPT_STATUSES,
    attempts.map((a) => a.status),
  );
  const verdicts = countBy<Verdict>(
    VERDICTS,
    attempts.map((a) => a.verdict),
  );
  const successes = verdicts.PASS;
  const requiredMet = verdicts.PASS + verdicts.PARTIAL;
  const failures = verdicts.FAIL + verdicts.PARTIAL + verdicts.CONTRADICTED;
  const disputed = verdicts.DISPUTED;
  const missing = rubric.missingEvidence === 'bound' ? verdicts.UNKNOWN : 0;
  const attemptsInBound = successes + failures + disputed + missing;
  const exclusions = rubric.missingEvidence === 'exclude' ? attempts.flatMap((a) => exclusionOf(a) ?? []) : [];
  const { rate: tau, alpha } = rubric.threshold;
  const bound = clopperPearson(successes, attemptsInBound, { alpha, sided: 'one' });
  const requiredBound = clopperPearson(requiredMet, attemptsInBound, { alpha, sided: 'one' });
  const rate = attemptsInBound > 0 ? successes / attemptsInBound : null;
  const descriptive = attemptsInBound > 0 ? wilson(successes, attemptsInBound, { alpha: 0.05, sided: 'two' }) : null;

  const rule = (extra: number) => armRule(successes + extra, requiredMet + extra, attemptsInBound, rubric);
  const low = rule(0);
  const high = rule(disputed + missing);
  // Whether the disputed attempts alone, with the missing ones held either way, change the verdict.
  const disputeSwings = () => disputed > 0 && (low !== rule(disputed) || rule(missing) !== high);

  let verdict: Verdict;
  let decidedBy: ArmRule;
  let toSettle: ArmDecision['toSettle'] = null;
  const seq = input.sequential;
  const n = attemptsInBound;
  if (input.cutShort > 0) {
    // The declared number of attempts did not run and no declared rule ended the arm: a bound on the attempts that
    // did run would be a test whose stopping followed the run (e.g. Ctrl-C once the progress looked good).
    verdict = 'UNKNOWN';
    decidedBy = { kind: 'cut-short', notRun: input.cutShort, attempts: attempts.length, successes };
  } else if (attempts.length === 0 || statuses.blocked === attempts.length) {
    verdict = 'UNKNOWN';
    decidedBy = attempts.length === 0 ? { kind: 'no-attempts' } : { kind: 'all-blocked' };
  } else if (successes + failures + disputed === 0) {
    verdict = 'UNKNOWN';
    decidedBy = { kind: 'no-verdict' };
  } else if (seq) {
    verdict = seq.decision === 'pass' ? 'PASS' : seq.decision === 'fail' ? 'FAIL' : 'UNKNOWN';
    decidedBy = { kind: 'sequential', ...seq, attempts: attempts.length, successes };
  } else if (low === high) {
    verdict = low;
    if (low === 'PASS')
      decidedBy = { kind: 'certified', successes, attempts: n, alpha, lower: bound.lower, threshold: tau };
    else if (low === 'PARTIAL')
      decidedBy = {
        kind: 'required-only',
        successes,
        requiredMet,
        attempts: n,
        lower: bound.lower,
        requiredLower: requiredBound.lower,
        threshold: tau,
      };
    else if (low === 'FAIL')
      decidedBy = {
        kind: 'bounded-below',
        requiredMet,
        attempts: n,
        requiredUpper: requiredBound.upper,
        threshold: tau,
      };
    else {
      toSettle = attemptsToSettle(successes, n, tau, alpha);
      decidedBy = {
        kind: 'straddles',
        successes,
        attempts: n,
        lower: bound.lower,
        upper: bound.upper,
        threshold: tau,
        ...toSettle,
      };
    }
  } else if (disputeSwings()) {
    verdict = 'DISPUTED';
    decidedBy = { kind: 'disputes-swing', disputed, ifFail: low, ifPass: high };
  } else {
    verdict = 'UNKNOWN';
    decidedBy = { kind: 'missing-swings', unknown: verdicts.UNKNOWN, ifFail: low, ifPass: high };
  }
  if (verdicts.CONTRADICTED > 0) verdict = 'CONTRADICTED';
  const why = {
    rule: decidedBy,
    contradicted: verdicts.CONTRADICTED,
    notCompleted: ATTEMPT_STATUSES.filter((s) => s !== 'completed' && statuses[s] > 0).map((status) => ({
      status,
      count: statuses[status],
    })),
    excluded: exclusions.length,
  };

  const refusalName = rubric.refusal;
  const refusalResults = refusalName
    ? attempts.flatMap((a) =>
        a.criteria.filter((c) => c.criterion === refusalName && (c.result === 'met' || c.result === 'unmet')),
      )
    : [];
  const refused = refusalResults.filter((c) => c.result === 'met').length;
  const labels: Record<string, Record<string, number>> = {};
  for (const criterion of rubric.criteria.filter((c) => c.labels)) {
    const counts = Object.fromEntries((criterion.labels?.vocabulary ?? []).map((label) => [label, 0])) as Record<
      string,
      number
    >;
    for (const attempt of attempts) {
      const label = attempt.criteria.find((c) => c.criterion === criterion.name)?.label;
      if (label !== null && label !== undefined) counts[label] = (counts[label] ?? 0) + 1;
    }
    labels[criterion.name] = counts;
  }

  return {
    arm: input.arm.id,
    role: input.arm.role,
    planned: input.planned,
    run: attempts.length,
    notRun: input.notRun,
    statuses,
    verdicts,
    rate,
    wilson: descriptive ? { lower: descriptive.lower, upper: descriptive.upper, confidence: 0.95 } : null,
    decision: {
      method: seq ? seq.method : 'clopper-pearson',
      sided: 'one',
      alpha: seq ? seq.alpha : alpha,
      threshold: tau,
      successes,
      attempts: attemptsInBound,
      lower: bound.lower,
      upper: bound.upper,
      toSettle,
    },
    required: {
      successes: requiredMet,
      attempts: attemptsInBound,
      lower: requiredBound.lower,
      upper: requiredBound.upper,
    },
    exclusions,
    verdict,
    why,
    refusal: refusalName
      ? { refused, judged: refusalResults.length, rate: refusalResults.length ? refused / refusalResults.length : null }
      : null,
    labels,
    pressure: armPressure(attempts),
    scores: armScores(rubric, attempts),
  };
}
