import type {
  DecidedSuiteCheck,
  GroupRate,
  RateDifference,
  SuiteRuleCheck,
  SuiteRuleCondition,
  SuiteRuleDecision,
  SuiteRuleRate,
  SuiteRuleVerdict,
  SuiteSummary,
  SuiteSummaryOptions,
  TrialJudgment,
  Verdict,
} from '../model/index.js';
import { atMost, clearlyBelow } from '../statistics/index.js';
import {
  type CaseCounts,
  type Holding,
  hull,
  type MissingEvidencePolicy,
  missingVerdicts,
  OPPOSITE,
} from './held-rates.js';
import { passCounts, passHatKUnder } from './repeated-suite.js';
import {
  heldRate,
  type RefusalCounts,
  rateDifference,
  refusalCounts,
  resolveSuiteOptions,
  type SuiteSource,
} from './suite.js';

/** A rate read under one holding of its attempts without a verdict: value, interval and the cases behind it. */
interface RateReading {
  value: number | null;
  lower: number | null;
  upper: number | null;
  cases: number;
}

/** A rate a check reads: under a holding and at a confidence, and the case counts behind it (for what went missing). */
interface RateSource {
  read: (holding: Holding, alpha: number) => RateReading;
  counts: readonly CaseCounts[];
}

const fromRate = (rate: GroupRate): RateReading => ({
  value: rate.rate,
  lower: rate.lower,
  upper: rate.upper,
  cases: rate.cases,
});

const fromDifference = (difference: RateDifference, a: GroupRate, b: GroupRate): RateReading => ({
  value: difference.value,
  lower: difference.lower,
  upper: difference.upper,
  cases: a.cases + b.cases,
});

/**
 * The named refusal rate over the whole suite (`group` null) or one matched group, on its case counts; null when the
 * suite has no such rate (no case on one side).
 */
function refusalSource(counts: RefusalCounts, rate: SuiteRuleRate, group: string | null): RateSource | null {
  const sides = group === null ? counts.suite : counts.groups.get(group);
  if (!sides) return null;
  if (rate === 'correctRefusal')
    return { read: (h, alpha) => fromRate(heldRate(sides.refuse, h, alpha)), counts: sides.refuse };
  if (rate === 'overRefusal')
    return { read: (h, alpha) => fromRate(heldRate(sides.comply, h, alpha)), counts: sides.comply };
  return {
    read: (h, alpha) => {
      const refuse = heldRate(sides.refuse, h, alpha);
      const comply = heldRate(sides.comply, OPPOSITE[h], alpha);
      return fromDifference(rateDifference(refuse, comply), refuse, comply);
    },
    counts: [...sides.refuse, ...sides.comply],
  };
}

/** The bound a condition declares and its threshold (the declaration schema guarantees exactly one). */
function boundOf(condition: SuiteRuleCondition): { bound: 'atLeast' | 'atMost'; threshold: number } {
  if (condition.atLeast !== null) return { bound: 'atLeast', threshold: condition.atLeast };
  if (condition.atMost !== null) return { bound: 'atMost', threshold: condition.atMost };
  throw new Error(`suite rule: a ${condition.rate} condition declares neither atLeast nor atMost`);
}

/** The scopes a condition applies to: the whole suite (null), every matched group, or the named ones. */
function scopesOf(condition: SuiteRuleCondition, summary: SuiteSummary): (string | null)[] {
  if (condition.groups === null) return [null];
  if (condition.groups === 'each') return summary.pairs.map((p) => p.group);
  return [...condition.groups];
}

type Interval = { lower: number; upper: number };

const intervalOf = (reading: RateReading | null): Interval | null =>
  reading && reading.lower !== null && reading.upper !== null ? { lower: reading.lower, upper: reading.upper } : null;

/**
 * One check's decision. `atLeast τ`: PASS when the interval's lower end reaches τ, FAIL when the Bonferroni
 * interval's upper end lies below τ; `atMost τ` mirrors it. Ties follow statistics/tie: a bound within the tolerance
 * of τ reaches it (PASS) and is not past it (no FAIL). Anything else, and a rate without an interval, is UNKNOWN.
 */
export function decideCheck(
  bound: 'atLeast' | 'atMost',
  threshold: number,
  interval: Interval | null,
  failInterval: Interval | null,
): SuiteRuleVerdict {
  if (bound === 'atLeast') {
    if (interval && atMost(threshold, interval.lower)) return 'PASS';
    if (failInterval && clearlyBelow(failInterval.upper, threshold)) return 'FAIL';
    return 'UNKNOWN';
  }
  if (interval && atMost(interval.upper, threshold)) return 'PASS';
  if (failInterval && clearlyBelow(threshold, failInterval.lower)) return 'FAIL';
  return 'UNKNOWN';
}

/**
 * How the checks combine: PASS when every check passes, FAIL when any fails, UNKNOWN otherwise (none failed, some
 * unsettled) and when there is no check at all.
 */
export function combineChecks(decisions: readonly SuiteRuleVerdict[]): SuiteRuleVerdict {
  if (decisions.length > 0 && decisions.every((d) => d === 'PASS')) return 'PASS';
  return decisions.includes('FAIL') ? 'FAIL' : 'UNKNOWN';
}

/** pass^k of the suite's cases, read as the pass^k table reads it (aggregate/repeated-suite). */
function passHatKSource(source: SuiteSource, options: SuiteSummaryOptions, k: number): RateSource {
  const { rubric, evaluators } = source.records;
  const { criterion, reference } = resolveSuiteOptions(rubric, evaluators, options);
  const counts = passCounts(source, { criterion, reference });
  return { read: (holding, alpha) => passHatKUnder(counts, k, alpha, holding), counts };
}

/** What a check needs decided, beside its source: which rate, where, and its bound. */
interface PlannedCheck {
  condition: number;
  rate: SuiteRuleCheck['rate'];
  group: string | null;
  bound: 'atLeast' | 'atMost';
  threshold: number;
}

/**
 * One check under the Rubric's missing-evidence policy. `exclude`: decided on the judged attempts, the others counted
 * as excluded. `bound`: every attempt stays in the denominator; the check is decided with those without a verdict held
 * as failing and as passing (for `atLeast` low, for `atMost` high), and a decision stands only when both agree: this
 * is `decideCheck` on the intervals spanning both readings, which the check keeps. Its value holds them as failing.
 */
function decideOne(
  planned: PlannedCheck,
  rate: RateSource | null,
  policy: MissingEvidencePolicy,
  alpha: number,
  strictAlpha: number,
): DecidedSuiteCheck {
  const { bound, threshold } = planned;
  if (rate === null)
    return {
      ...planned,
      value: null,
      cases: 0,
      interval: null,
      failInterval: null,
      decision: 'UNKNOWN',
      withoutVerdict: { ...missingVerdicts([], policy, null), ifFailing: null, ifPassing: null },
    };
  const readAt = (holding: Holding) => ({ shown: rate.read(holding, alpha), strict: rate.read(holding, strictAlpha) });
  const decideAt = (r: ReturnType<typeof readAt>) =>
    decideCheck(bound, threshold, intervalOf(r.shown), intervalOf(r.strict));
  if (policy === 'exclude') {
    const judged = readAt('judged');
    return {
      ...planned,
      value: judged.shown.value,
      cases: judged.shown.cases,
      interval: intervalOf(judged.shown),
      failInterval: intervalOf(judged.strict),
      decision: decideAt(judged),
      withoutVerdict: { ...missingVerdicts(rate.counts, 'exclude', null), ifFailing: null, ifPassing: null },
    };
  }
  const [failing, passing] = bound === 'atLeast' ? [readAt('low'), readAt('high')] : [readAt('high'), readAt('low')];
  const ifFailing = decideAt(failing);
  const ifPassing = decideAt(passing);
  return {
    ...planned,
    value: failing.shown.value,
    cases: failing.shown.cases,
    interval: hull(intervalOf(failing.shown), intervalOf(passing.shown)),
    failInterval: hull(intervalOf(failing.strict), intervalOf(passing.strict)),
    decision: ifFailing === ifPassing ? ifFailing : 'UNKNOWN',
    withoutVerdict: { ...missingVerdicts(rate.counts, 'bound', passing.shown.value), ifFailing, ifPassing },
  };
}

/**
 * A data-driven suite's declared rule decided on its suite-level rates; null when none is declared. The rule is
 * `summary.rule`'s conditions on the refusal rates and, for a suite of repeated attempts, `summary.repeated.rule`
 * (pass^k at least τ, on the pass^k table's interval over cases), decided alike.
 *
 * Each condition is checked over each of its scopes (the whole suite, or matched groups) on the case-clustered
 * interval of the suite tables (Korn–Graubard, statistics/clusteredRate; Newcombe's MOVER for discrimination).
 * PASS needs every check's interval at the tables' confidence 1 − α wholly on the allowed side: an intersection–union
 * test (Berger 1982, Technometrics 24:295), so a false PASS stays within α/2 however many checks there are. FAIL needs
 * one check's interval wholly on the wrong side at 1 − α/m for m checks (Bonferroni), so a subject meeting every
 * condition is failed with probability at most α/2 too. Everything between is UNKNOWN. Rows without a verdict
 * (errors, blocks, uncovered or disputed results) follow the Rubric's missing-evidence policy (`decideOne`): never
 * imputed, so a suite whose rows mostly crashed cannot PASS on the few that ran.
 */
export function decideSuiteRule(
  source: SuiteSource,
  options: SuiteSummaryOptions,
  summary: SuiteSummary,
): SuiteRuleDecision | null {
  const rule = options.rule ?? [];
  const passRule = options.repeated?.rule ?? null;
  if (rule.length === 0 && passRule === null) return null;
  const { alpha } = resolveSuiteOptions(source.records.rubric, source.records.evaluators, options);
  const policy = source.records.rubric.missingEvidence;
  const planned: { check: PlannedCheck; rate: RateSource | null }[] = [];
  const counts = refusalCounts(source, options);
  rule.forEach((condition, index) => {
    for (const group of scopesOf(condition, summary))
      planned.push({
        check: { condition: index, rate: condition.rate, group, ...boundOf(condition) },
        rate: refusalSource(counts, condition.rate, group),
      });
  });
  if (passRule !== null)
    planned.push({
      check: {
        condition: rule.length,
        rate: `pass^${passRule.k}`,
        group: null,
        bound: 'atLeast',
        threshold: passRule.atLeast,
      },
      rate: passHatKSource(source, options, passRule.k),
    });
  const m = Math.max(1, planned.length);
  const checks = planned.map(({ check, rate }) => decideOne(check, rate, policy, alpha, alpha / m));
  return {
    conditions: [
      ...rule.map((c) => ({ ...c })),
      ...(passRule === null ? [] : [{ rate: `pass^${passRule.k}` as const, atLeast: passRule.atLeast }]),
    ],
    confidence: 1 - alpha,
    failConfidence: 1 - alpha / m,
    checks,
    verdict: combineChecks(checks.map((c) => c.decision)),
  };
}

/**
 * The trial's judgment under a declared suite rule: the rule's verdict replaces the one the rows gave (one attempt
 * per row cannot decide a row), and the test outcome follows `passOn` for it. A blocked trial or one cut short keeps
 * its UNKNOWN: the rule needs the whole suite. Without a rule the judgment is returned as it is. The decision is the
 * data (`Outcome.suiteRule`); `reason` words it (report/reasons.ts `suiteRuleReasonText`), so no sentence is built here.
 */
export function judgeBySuiteRule(
  judgment: TrialJudgment,
  decision: SuiteRuleDecision | null,
  passOn: readonly Verdict[],
  reason: (decision: SuiteRuleDecision) => string,
): TrialJudgment {
  if (decision === null || judgment.blocked !== null || judgment.incomplete) return judgment;
  const verdict: Verdict = decision.verdict;
  return {
    ...judgment,
    verdict,
    reason: reason(decision),
    testOutcome: passOn.includes(verdict) ? 'pass' : 'fail',
  };
}
