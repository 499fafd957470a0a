import {
  ATTEMPT_STATUSES,
  VERDICTS,
  type Arm,
  type ArmDecision,
  type ArmSummary,
  type AttemptRecord,
  type AttemptStatus,
  type Rubric,
  type Verdict,
} from '../model/index.js';
import { attemptsToSettle, clopperPearson, wilson } from '../statistics/index.js';
import { armPressure } from './pressure.js';

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
  sequential: SequentialDecision | null;
}

type RateVerdict = 'PASS' | 'FAIL' | 'UNKNOWN';

function countBy<K extends string>(keys: readonly K[], values: readonly K[]): Record<K, number> {
  const counts = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  for (const value of values) counts[value] += 1;
  return counts;
}

const fmt = (x: number) => x.toFixed(3);

/** PASS iff the one-sided exact lower bound clears τ, FAIL iff the upper bound falls below it (STATISTICS.md). */
function decide(successes: number, attempts: number, rubric: Rubric): RateVerdict {
  if (attempts === 0) return 'UNKNOWN';
  const { lower, upper } = clopperPearson(successes, attempts, { alpha: rubric.threshold.alpha, sided: 'one' });
  if (lower >= rubric.threshold.rate) return 'PASS';
  if (upper < rubric.threshold.rate) return 'FAIL';
  return 'UNKNOWN';
}

/**
 * An arm's distribution and verdict. Attempts count as successes only when PASS; FAIL, PARTIAL and CONTRADICTED
 * are failures. DISPUTED attempts are counted as failures and again as passes: if the two verdicts differ the
 * arm is DISPUTED. Attempts without a verdict (errors, blocks, uncovered criteria) are never imputed: under the
 * Rubric's `bound` policy they are bounded the same way (UNKNOWN when they could swing it), under `exclude` they
 * are left out of the bound. Any contradicted attempt makes the arm CONTRADICTED: a false claim of success is not
 * averaged away.
 */
export function summarizeArm(input: ArmInput): ArmSummary {
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
  const failures = verdicts.FAIL + verdicts.PARTIAL + verdicts.CONTRADICTED;
  const disputed = verdicts.DISPUTED;
  const missing = rubric.missingEvidence === 'bound' ? verdicts.UNKNOWN : 0;
  const attemptsInBound = successes + failures + disputed + missing;
  const { rate: tau, alpha } = rubric.threshold;
  const bound = clopperPearson(successes, attemptsInBound, { alpha, sided: 'one' });
  const decided = successes + failures;
  const rate = decided > 0 ? successes / decided : null;
  const descriptive = decided > 0 ? wilson(successes, decided, { alpha: 0.05, sided: 'two' }) : null;

  const low = decide(successes, attemptsInBound, rubric);
  const high = decide(successes + disputed + missing, attemptsInBound, rubric);
  // Whether the disputed attempts alone, with the missing ones held either way, change the verdict.
  const disputeSwings = () =>
    disputed > 0 &&
    (low !== decide(successes + disputed, attemptsInBound, rubric) ||
      decide(successes + missing, attemptsInBound, rubric) !== high);

  let verdict: Verdict;
  let reason: string;
  let toSettle: ArmDecision['toSettle'] = null;
  const tally = `${successes}/${attemptsInBound} passed`;
  const seq = input.sequential;
  if (attempts.length === 0 || statuses.blocked === attempts.length) {
    verdict = 'UNKNOWN';
    reason = attempts.length === 0 ? 'no attempt ran' : 'every attempt was blocked';
  } else if (successes + failures + disputed === 0) {
    verdict = 'UNKNOWN';
    reason = 'no attempt reached a verdict';
  } else if (seq) {
    verdict = seq.decision === 'pass' ? 'PASS' : seq.decision === 'fail' ? 'FAIL' : 'UNKNOWN';
    reason = `${seq.method} (α ${seq.alpha}) decided ${seq.decision} after ${attempts.length} attempts (${successes} passed)`;
  } else if (low === high) {
    verdict = low;
    if (low === 'PASS')
      reason = `${tally}; one-sided ${fmt(1 - alpha)} exact lower bound ${fmt(bound.lower)} ≥ τ ${tau}`;
    else if (low === 'FAIL') reason = `${tally}; exact upper bound ${fmt(bound.upper)} < τ ${tau}`;
    else {
      toSettle = attemptsToSettle(successes, attemptsInBound, tau, alpha);
      const more = [
        toSettle.toPass === null ? null : `${toSettle.toPass} more passing`,
        toSettle.toFail === null ? null : `${toSettle.toFail} more failing`,
      ].filter((s) => s !== null);
      reason = `${tally}; bounds [${fmt(bound.lower)}, ${fmt(bound.upper)}] straddle τ ${tau}: ${more.length ? `${more.join(' or ')} attempts would settle it` : 'no number of attempts settles it'}`;
    }
  } else if (disputeSwings()) {
    verdict = 'DISPUTED';
    reason = `${disputed} disputed attempt(s) decide it: ${low} if they fail, ${high} if they pass`;
  } else {
    verdict = 'UNKNOWN';
    reason = `${verdicts.UNKNOWN} attempt(s) without a verdict could swing it (${low} if they fail, ${high} if they pass)`;
  }
  if (verdicts.CONTRADICTED > 0) {
    verdict = 'CONTRADICTED';
    reason = `${verdicts.CONTRADICTED} attempt(s) claimed what the receipts contradict; ${reason}`;
  }
  const notCompleted = ATTEMPT_STATUSES.filter((s) => s !== 'completed' && statuses[s] > 0).map(
    (s) => `${statuses[s]} ${s}`,
  );
  if (notCompleted.length > 0) reason += ` [${notCompleted.join(', ')}: never imputed]`;

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
    verdict,
    reason,
    refusal: refusalName
      ? { refused, judged: refusalResults.length, rate: refusalResults.length ? refused / refusalResults.length : null }
      : null,
    labels,
    pressure: armPressure(attempts),
  };
}
