import type {
  AttemptRecord,
  CriterionFinding,
  PassHatKRow,
  RepeatedOptions,
  RepeatedSummary,
  RepeatedVerdictRule,
} from '../model/index.js';
import { atMost, clearlyBelow, clusteredRate, passHatK } from '../statistics/index.js';
import {
  type CaseCounts,
  type Holding,
  hull,
  type MissingEvidencePolicy,
  missingVerdicts,
  unitOf,
} from './held-rates.js';
import type { SuiteSource } from './suite.js';

/** What the repeated-attempt tables are computed from, resolved with the rest of the suite options. */
export interface RepeatedInput {
  criterion: string;
  /** Evaluator whose findings decide an attempt's success; null: the combined criterion result. */
  reference: string | null;
  alpha: number;
  options: RepeatedOptions;
}

type Result = 'met' | 'unmet' | null;

/** One case of the repeated tables: its arm and its attempts' counts on the criterion. */
type CaseRow = CaseCounts & { arm: string };

function resultOf(attempt: AttemptRecord, criterion: string, reference: string | null): Result {
  const source =
    reference === null
      ? attempt.criteria.find((c) => c.criterion === criterion)
      : attempt.findings.find((f) => f.evaluator === reference && f.criterion === criterion);
  return source?.result === 'met' || source?.result === 'unmet' ? source.result : null;
}

/** Whether the source's subject ran live, was served again, or replays recorded independent samples. */
function independenceOf(source: SuiteSource): RepeatedSummary['independence'] {
  const { environment } = source.records;
  if (!environment.independentAttempts) return 'not-independent';
  return environment.subject.kind === 'replay' ? 'recorded-samples' : 'independent';
}

/** C(n, k) for the small n of repeated attempts, exact while it stays below 2^53. */
function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return Math.round(result);
}

/** pass^k under one holding of the attempts without a verdict: the mean over its units, with its interval. */
export interface PassHatKReading {
  cases: number;
  value: number | null;
  lower: number | null;
  upper: number | null;
}

/**
 * pass^k over cases: the mean of C(cᵢ, k)/C(nᵢ, k) over the cases with at least k attempts in the denominator under
 * the holding (Yao et al. 2024, τ-bench, §5; the leaderboard's "Pass^k"). Its interval has cases as units: the suite's
 * Korn–Graubard interval (statistics/clusteredRate) on the case estimates, each given as C(cᵢ, k) of C(nᵢ, k)
 * k-subsets of its attempts, so a case's mean is its estimate; boundary-respecting and never of zero width. One case
 * has no interval.
 */
export function passHatKUnder(
  perCase: readonly CaseCounts[],
  k: number,
  alpha: number,
  holding: Holding,
): PassHatKReading {
  const units = perCase.map((c) => unitOf(c, holding)).filter((u) => u.attempts >= k);
  const values = units.map((u) => passHatK(u.successes, u.attempts, k));
  if (values.length === 0) return { cases: 0, value: null, lower: null, upper: null };
  const value = values.reduce((sum, v) => sum + v, 0) / values.length;
  if (values.length < 2) return { cases: values.length, value, lower: null, upper: null };
  const rate = clusteredRate(
    units.map((u) => ({
      successes: u.successes < k ? 0 : choose(u.successes, k),
      attempts: choose(u.attempts, k),
    })),
    { alpha },
  );
  return { cases: values.length, value, lower: rate.lower, upper: rate.upper };
}

const intervalOf = (r: PassHatKReading) =>
  r.lower === null || r.upper === null ? null : { lower: r.lower, upper: r.upper };

/**
 * A row of the pass^k table under the Rubric's missing-evidence policy. `exclude`: on the judged attempts, a case
 * counting for the k it has enough judged attempts for. `bound`: every attempt run stays in its case's denominator,
 * never imputed; the value holds those without a verdict as failing, the interval spans them held as failing and as
 * passing, so the rule read on it stands only where both readings agree.
 */
export function passHatKRow(
  perCase: readonly CaseCounts[],
  k: number,
  alpha: number,
  policy: MissingEvidencePolicy,
): PassHatKRow {
  const low = passHatKUnder(perCase, k, alpha, policy === 'bound' ? 'low' : 'judged');
  const high = policy === 'bound' ? passHatKUnder(perCase, k, alpha, 'high') : low;
  const interval = hull(intervalOf(low), intervalOf(high));
  return {
    k,
    cases: low.cases,
    value: low.value,
    lower: interval?.lower ?? null,
    upper: interval?.upper ?? null,
    method: interval === null ? null : 'korn-graubard',
    withoutVerdict: missingVerdicts(perCase, policy, high.value),
  };
}

/** Each case's successes on the criterion, judged attempts and attempts run, in the suite's arm order. */
export function passCounts(source: SuiteSource, input: Pick<RepeatedInput, 'criterion' | 'reference'>): CaseRow[] {
  const byArm = new Map<string, AttemptRecord[]>();
  for (const attempt of source.attempts) {
    const list = byArm.get(attempt.arm);
    if (list) list.push(attempt);
    else byArm.set(attempt.arm, [attempt]);
  }
  return source.records.suite.arms.map((arm) => {
    const results = (byArm.get(arm.id) ?? []).map((a) => resultOf(a, input.criterion, input.reference));
    return {
      arm: arm.id,
      met: results.filter((r) => r === 'met').length,
      judged: results.filter((r) => r !== null).length,
      run: results.length,
    };
  });
}

/**
 * The rule on this table alone: PASS iff the interval's lower bound reaches the threshold, FAIL iff its upper bound is
 * below it, else UNKNOWN (ties per statistics/tie, as aggregate/suite-rule `decideCheck`). Under `bound` the interval
 * spans the attempts without a verdict held either way, so PASS or FAIL stands only where both agree. The trial's verdict is the
 * suite rule's (`Outcome.suiteRule`), which checks this rule with any refusal conditions, at α/m for FAIL.
 */
function decide(rule: RepeatedVerdictRule, row: PassHatKRow | undefined): NonNullable<RepeatedSummary['verdict']> {
  if (row === undefined || row.lower === null || row.upper === null) return { rule, verdict: 'UNKNOWN' };
  if (atMost(rule.atLeast, row.lower)) return { rule, verdict: 'PASS' };
  if (clearlyBelow(row.upper, rule.atLeast)) return { rule, verdict: 'FAIL' };
  return { rule, verdict: 'UNKNOWN' };
}

function disagreements(attempts: readonly AttemptRecord[], input: RepeatedInput): RepeatedSummary['disagreements'] {
  if (input.reference === null) return [];
  const list: RepeatedSummary['disagreements'] = [];
  for (const attempt of attempts) {
    const reference = resultOf(attempt, input.criterion, input.reference);
    if (reference === null) continue;
    const others = attempt.findings.filter(
      (f): f is CriterionFinding & { result: 'met' | 'unmet' } =>
        f.criterion === input.criterion &&
        f.evaluator !== input.reference &&
        (f.result === 'met' || f.result === 'unmet') &&
        f.result !== reference,
    );
    for (const finding of others) {
      list.push({
        evaluator: finding.evaluator,
        arm: attempt.arm,
        attempt: attempt.index,
        reference,
        finding: finding.result,
        note: finding.note,
      });
    }
  }
  return list;
}

/**
 * The repeated-attempt tables of a suite: pass^1…pass^n with case-clustered intervals, cases by successes out of n,
 * the declared rule's verdict, contradicted attempts and the reference's disagreements. An attempt without a met or
 * unmet result from the reference is never imputed: its case is listed as incomplete, left out of the spread by
 * successes, and in pass^k follows the Rubric's missing-evidence policy (`passHatKRow`).
 */
export function summarizeRepeated(source: SuiteSource, input: RepeatedInput): RepeatedSummary {
  const n = source.records.suite.repeat.n;
  const perCase = passCounts(source, input);
  const policy = source.records.rubric.missingEvidence;
  const passHatKRows = Array.from({ length: n }, (_, i) => passHatKRow(perCase, i + 1, input.alpha, policy));
  const complete = perCase.filter((c) => c.judged === n);
  const contradictedAttempts = source.attempts.filter((a) => a.verdict === 'CONTRADICTED');
  const list = contradictedAttempts.flatMap((a) =>
    a.claims
      .filter((c) => c.status === 'contradicted')
      .map((c) => ({ arm: a.arm, attempt: a.index, claim: c.claim.text, note: c.note })),
  );
  const { rule } = input.options;
  return {
    criterion: input.criterion,
    reference: input.reference,
    independence: independenceOf(source),
    attemptsPerCase: n,
    cases: perCase.length,
    incomplete: perCase.filter((c) => c.judged < n).map((c) => ({ arm: c.arm, judged: c.judged })),
    passHatK: passHatKRows,
    distribution: Array.from({ length: n + 1 }, (_, successes) => ({
      successes,
      cases: complete.filter((c) => c.met === successes).length,
    })),
    verdict: rule === null ? null : decide(rule, passHatKRows[rule.k - 1]),
    contradicted: {
      attempts: contradictedAttempts.length,
      cases: new Set(contradictedAttempts.map((a) => a.arm)).size,
      claims: list.length,
      list,
    },
    disagreements: disagreements(source.attempts, input),
  };
}
