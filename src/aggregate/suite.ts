import type {
  Arm,
  AttemptRecord,
  CriterionFinding,
  Evaluator,
  MissingVerdicts,
  Outcome,
  Rubric,
  SuiteSummaryOptions,
  SuiteRuleCondition,
} from '../model/index.js';
import type {
  AgreementCounts,
  DisputeShare,
  EvaluatorAgreement,
  GroupPath,
  GroupRate,
  LabelRow,
  PairRow,
  RateDifference,
  RefusalBalance,
  SuiteSummary,
} from '../model/suite-summary.js';
import { clusteredRate, wilson, type ClusterInput } from '../statistics/index.js';
import {
  type CaseCounts,
  type Holding,
  hull,
  type MissingEvidencePolicy,
  missingVerdicts,
  OPPOSITE,
  unitOf,
} from './held-rates.js';
import { summarizeRepeated } from './repeated-suite.js';
import { agreementStatistics, emptyCounts } from './suite-calibration.js';

/** What to tabulate and how, declared with the suite (all but `dataset` have defaults). */
/**
 * What to tabulate and by what, as declared with the Trial Suite: every option but `dataset` may be omitted (or null,
 * as the TrialSuite record stores it; model/trial-suite: SuiteSummaryOptions).
 */
export type SuiteOptions = Pick<SuiteSummaryOptions, 'dataset'> & {
  [K in Exclude<keyof SuiteSummaryOptions, 'dataset' | 'rule'>]?: SuiteSummaryOptions[K];
} & { rule?: readonly SuiteRuleConditionDeclaration[] | null };

/** A suite rule's condition as declared: what it does not set may be omitted (null in the record). */
export type SuiteRuleConditionDeclaration = Pick<SuiteRuleCondition, 'rate'> & {
  [K in Exclude<keyof SuiteRuleCondition, 'rate'>]?: SuiteRuleCondition[K];
};

/** The options with every default filled in, checked against the Rubric and the evaluators. */
export interface ResolvedSuiteOptions {
  dataset: string;
  criterion: string;
  vocabulary: string[];
  labelled: boolean;
  groupBy: string[];
  reference: string | null;
  panel: string[];
  alpha: number;
}

/** The parts of an Outcome a suite summary is computed from. */
export type SuiteSource = Pick<Outcome, 'records' | 'attempts'>;

type Intent = 'refuse' | 'comply' | 'neither';

/** One attempt reduced to what the tables need. */
interface AttemptFacts {
  label: string | null;
  missing: 'disputed' | 'unknown' | 'error' | null;
  refused: boolean | null;
}

/**
 * Fill in and check suite options. Throws (a configuration mistake) naming the field and the fix; call it where the
 * suite is declared so the mistake surfaces before any attempt runs.
 */
export function resolveSuiteOptions(
  rubric: Rubric,
  evaluators: readonly Evaluator[],
  options: SuiteOptions,
): ResolvedSuiteOptions {
  const fail = (field: string, problem: string) => new Error(`suite summary: ${field}: ${problem}`);
  const fallback = rubric.refusal ?? rubric.criteria.find((c) => c.labels)?.name;
  const name = options.criterion ?? fallback;
  const criterion = rubric.criteria.find((c) => c.name === name);
  if (!criterion) {
    throw fail(
      'criterion',
      `${name === undefined ? 'none given and the Rubric has no refusal or multi-class criterion' : `"${name}" is not in the Rubric`}; name one of ${rubric.criteria.map((c) => c.name).join(', ')}`,
    );
  }
  const judging = evaluators.filter((e) => e.criteria.includes(criterion.name));
  const known = (id: string) => judging.some((e) => e.id === id);
  if (options.reference !== undefined && options.reference !== null && !known(options.reference)) {
    throw fail(
      'reference',
      `"${options.reference}" does not judge ${criterion.name}; name one of ${judging.map((e) => e.id).join(', ') || '(no evaluator judges it)'}`,
    );
  }
  const reference = options.reference ?? null;
  const panel = options.panel
    ? [...options.panel]
    : judging.filter((e) => e.kind === 'human' && e.id !== reference).map((e) => e.id);
  const unknownPanel = panel.filter((id) => !known(id));
  if (unknownPanel.length) throw fail('panel', `${unknownPanel.join(', ')} do not judge ${criterion.name}`);
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw fail('alpha', `${alpha} must be in (0, 1)`);
  const rule = options.repeated?.rule ?? null;
  if (rule !== null && !(Number.isInteger(rule.k) && rule.k >= 1 && rule.atLeast > 0 && rule.atLeast < 1))
    throw fail(
      'repeated.rule',
      `k must be a whole number ≥ 1 and atLeast in (0, 1); got k ${rule.k}, atLeast ${rule.atLeast}`,
    );
  return {
    dataset: options.dataset,
    criterion: criterion.name,
    vocabulary: criterion.labels ? [...criterion.labels.vocabulary] : ['met', 'unmet'],
    labelled: criterion.labels !== null,
    groupBy: [...(options.groupBy ?? [])],
    reference,
    panel,
    alpha,
  };
}

/**
 * A share over cases with its interval: the mean of the case shares. With two or more cases the attempts of a case
 * are a cluster and the Korn–Graubard interval on the effective sample size carries the uncertainty
 * (statistics/clusteredRate: boundary-respecting, never of zero width, also for one attempt per case); a single
 * case has only its own attempts, described by the Wilson interval.
 */
export function groupRate(units: readonly ClusterInput[], alpha: number): GroupRate {
  const cases = units.filter((u) => u.attempts > 0);
  const count = cases.reduce((sum, u) => sum + u.successes, 0);
  const attempts = cases.reduce((sum, u) => sum + u.attempts, 0);
  const base = { count, attempts, cases: cases.length };
  if (cases.length === 0) return { ...base, rate: null, lower: null, upper: null, method: null, designEffect: null };
  if (cases.length === 1) {
    const { lower, upper } = wilson(count, attempts, { alpha, sided: 'two' });
    return { ...base, rate: count / attempts, lower, upper, method: 'wilson', designEffect: null };
  }
  const clustered = clusteredRate(cases, { alpha });
  return {
    ...base,
    rate: clustered.mean,
    lower: clustered.lower,
    upper: clustered.upper,
    method: 'korn-graubard',
    designEffect: cases.every((u) => u.attempts === 1) ? null : clustered.designEffect,
  };
}

/**
 * a − b for two independent rates, with the MOVER interval built from each rate's own interval (Newcombe 1998,
 * Stat. Med. 17:873, method 10; Zou & Donner 2008, Stat. Med. 27:1693): L = d − √((a − lₐ)² + (u_b − b)²),
 * U = d + √((uₐ − a)² + (b − l_b)²). It inherits the Wilson intervals' good behaviour at 0 and 1.
 */
export function rateDifference(a: GroupRate, b: GroupRate): RateDifference {
  if (
    a.rate === null ||
    b.rate === null ||
    a.lower === null ||
    a.upper === null ||
    b.lower === null ||
    b.upper === null
  ) {
    return { value: null, lower: null, upper: null };
  }
  const value = a.rate - b.rate;
  return {
    value,
    lower: Math.max(-1, value - Math.hypot(a.rate - a.lower, b.upper - b.rate)),
    upper: Math.min(1, value + Math.hypot(a.upper - a.rate, b.rate - b.lower)),
  };
}

function intentOf(arm: Arm, refusal: string | null): Intent {
  if (refusal === null) return 'neither';
  if (arm.case.expect.includes(refusal)) return 'refuse';
  if (arm.case.forbid.includes(refusal)) return 'comply';
  return 'neither';
}

/** A finding's or result's rating on the criterion: its label (multi-class) or `met`/`unmet`; null when it gave none. */
function ratingOf(result: { result: string; label: string | null }, labelled: boolean): string | null {
  if (result.result !== 'met' && result.result !== 'unmet') return null;
  return labelled ? result.label : result.result;
}

function findingOf(attempt: AttemptRecord, evaluator: string, criterion: string): CriterionFinding | undefined {
  return attempt.findings.find((f) => f.evaluator === evaluator && f.criterion === criterion);
}

/** Where the tabulated results come from: the reference evaluator's findings, or the combined criterion results. */
function sourceOf(
  attempt: AttemptRecord,
  criterion: string,
  reference: string | null,
): { result: string; label: string | null } | undefined {
  return reference === null
    ? attempt.criteria.find((c) => c.criterion === criterion)
    : findingOf(attempt, reference, criterion);
}

function factsOf(
  attempt: AttemptRecord,
  options: ResolvedSuiteOptions,
  refusal: { criterion: string; reference: string | null } | null,
): AttemptFacts {
  const source = sourceOf(attempt, options.criterion, options.reference);
  const rating = source ? ratingOf(source, options.labelled) : null;
  const refusalSource = refusal === null ? undefined : sourceOf(attempt, refusal.criterion, refusal.reference);
  const refused = refusalSource?.result === 'met' ? true : refusalSource?.result === 'unmet' ? false : null;
  if (rating !== null && options.vocabulary.includes(rating)) return { label: rating, missing: null, refused };
  // Combined results that agree on met/unmet but not on the label are a dispute about the label.
  const unlabelledAgreement = options.reference === null && (source?.result === 'met' || source?.result === 'unmet');
  const missing =
    source?.result === 'disputed' || unlabelledAgreement
      ? 'disputed'
      : source?.result === 'error' || attempt.status !== 'completed'
        ? 'error'
        : 'unknown';
  return { label: null, missing, refused };
}

/** Distinct values in first-seen order. */
function firstSeen(values: readonly string[]): string[] {
  return [...new Set(values)];
}

interface ArmFacts {
  arm: Arm;
  intent: Intent;
  attempts: AttemptFacts[];
  records: AttemptRecord[];
}

function labelRow(
  path: GroupPath,
  arms: readonly ArmFacts[],
  options: ResolvedSuiteOptions,
  withRefusal: boolean,
): LabelRow {
  const all = arms.flatMap((a) => a.attempts);
  const labelled = (a: ArmFacts) => a.attempts.filter((f) => f.label !== null).length;
  return {
    path,
    cases: arms.length,
    attempts: all.length,
    labelled: all.filter((f) => f.label !== null).length,
    missing: {
      disputed: all.filter((f) => f.missing === 'disputed').length,
      unknown: all.filter((f) => f.missing === 'unknown').length,
      error: all.filter((f) => f.missing === 'error').length,
    },
    labels: options.vocabulary.map((label) => ({
      label,
      share: groupRate(
        arms.map((a) => ({ successes: a.attempts.filter((f) => f.label === label).length, attempts: labelled(a) })),
        options.alpha,
      ),
    })),
    refusal: withRefusal ? refusalRate(arms, options.alpha) : null,
  };
}

/** An arm's refusals, judged attempts (refused or not) and attempts run. */
function refusalCountsOf(arm: ArmFacts): CaseCounts {
  return {
    met: arm.attempts.filter((f) => f.refused === true).length,
    judged: arm.attempts.filter((f) => f.refused !== null).length,
    run: arm.attempts.length,
  };
}

/** The refusal share of these cases under one holding of their attempts without a verdict (aggregate/held-rates). */
export function heldRate(cases: readonly CaseCounts[], holding: Holding, alpha: number): GroupRate {
  return groupRate(
    cases.map((c) => unitOf(c, holding)),
    alpha,
  );
}

/**
 * A label row's refusal share: over the judged attempts, with those lacking a verdict counted in the row. Its cases
 * may mix both intents, so it has no side to hold them against.
 */
function refusalRate(arms: readonly ArmFacts[], alpha: number): GroupRate {
  return heldRate(arms.map(refusalCountsOf), 'judged', alpha);
}

const intervalOf = (r: { lower: number | null; upper: number | null }) =>
  r.lower === null || r.upper === null ? null : { lower: r.lower, upper: r.upper };

/**
 * One side's refusal share as the refusal tables show it, read as a suite rule's check reads it (aggregate/suite-rule):
 * under `exclude` over the judged attempts, the others counted as excluded; under `bound` over every attempt run,
 * those without a verdict held as failing (`failing`: `low`, not refused, where meant to refuse; `high`, refused,
 * where meant to comply) in the rate and its counts, with the interval spanning them held either way.
 */
function sideRate(
  cases: readonly CaseCounts[],
  failing: Holding,
  policy: MissingEvidencePolicy,
  alpha: number,
): { rate: GroupRate; withoutVerdict: MissingVerdicts } {
  if (policy === 'exclude')
    return { rate: heldRate(cases, 'judged', alpha), withoutVerdict: missingVerdicts(cases, 'exclude', null) };
  const asFailing = heldRate(cases, failing, alpha);
  const asPassing = heldRate(cases, OPPOSITE[failing], alpha);
  const interval = hull(intervalOf(asFailing), intervalOf(asPassing));
  return {
    rate: { ...asFailing, lower: interval?.lower ?? null, upper: interval?.upper ?? null },
    withoutVerdict: missingVerdicts(cases, 'bound', asPassing.rate),
  };
}

/** Discrimination (refusal where meant to refuse minus where meant to comply) under the policy, as `sideRate`. */
function discriminationOf(
  sides: RefusalSides,
  policy: MissingEvidencePolicy,
  alpha: number,
): { difference: RateDifference; withoutVerdict: MissingVerdicts } {
  const at = (holding: Holding) =>
    rateDifference(heldRate(sides.refuse, holding, alpha), heldRate(sides.comply, OPPOSITE[holding], alpha));
  const all = [...sides.refuse, ...sides.comply];
  if (policy === 'exclude') return { difference: at('judged'), withoutVerdict: missingVerdicts(all, 'exclude', null) };
  const asFailing = at('low');
  const asPassing = at('high');
  const interval = hull(intervalOf(asFailing), intervalOf(asPassing));
  return {
    difference: { value: asFailing.value, lower: interval?.lower ?? null, upper: interval?.upper ?? null },
    withoutVerdict: missingVerdicts(all, 'bound', asPassing.value),
  };
}

function labelTable(arms: readonly ArmFacts[], options: ResolvedSuiteOptions, withRefusal: boolean): LabelRow[] {
  const rows: LabelRow[] = [];
  const visit = (path: GroupPath, members: readonly ArmFacts[], depth: number) => {
    rows.push(labelRow(path, members, options, withRefusal));
    const tag = options.groupBy[depth];
    if (tag === undefined) return;
    const valueOf = (a: ArmFacts) => a.arm.case.tags[tag] ?? '(none)';
    for (const value of firstSeen(members.map(valueOf))) {
      visit(
        [...path, { tag, value }],
        members.filter((a) => valueOf(a) === value),
        depth + 1,
      );
    }
  };
  visit([], arms, 0);
  return rows;
}

/** Both sides' rates and their difference, each held as failing (refusals missed, refusals made) under `bound`. */
function heldSides(sides: RefusalSides, policy: MissingEvidencePolicy, alpha: number) {
  return {
    refuse: sideRate(sides.refuse, 'low', policy, alpha),
    comply: sideRate(sides.comply, 'high', policy, alpha),
    discrimination: discriminationOf(sides, policy, alpha),
  };
}

function refusalBalance(sides: RefusalSides, policy: MissingEvidencePolicy, alpha: number): RefusalBalance {
  const { refuse, comply, discrimination } = heldSides(sides, policy, alpha);
  return {
    correctRefusal: refuse.rate,
    overRefusal: comply.rate,
    discrimination: discrimination.difference,
    withoutVerdict: {
      correctRefusal: refuse.withoutVerdict,
      overRefusal: comply.withoutVerdict,
      discrimination: discrimination.withoutVerdict,
    },
  };
}

function pairRow(group: string, sides: RefusalSides, policy: MissingEvidencePolicy, alpha: number): PairRow {
  const { refuse, comply, discrimination } = heldSides(sides, policy, alpha);
  return {
    group,
    refuse: refuse.rate,
    comply: comply.rate,
    discrimination: discrimination.difference,
    withoutVerdict: {
      refuse: refuse.withoutVerdict,
      comply: comply.withoutVerdict,
      discrimination: discrimination.withoutVerdict,
    },
  };
}

function disputeShare(arms: readonly ArmFacts[], options: ResolvedSuiteOptions): DisputeShare | null {
  if (options.panel.length < 2) return null;
  const perArm = arms.map((a) => {
    let judged = 0;
    let disputed = 0;
    for (const attempt of a.records) {
      const ratings = options.panel
        .map((id) => findingOf(attempt, id, options.criterion))
        .flatMap((f) => {
          const rating = f ? ratingOf(f, options.labelled) : null;
          return rating === null ? [] : [rating];
        });
      if (ratings.length < 2) continue;
      judged++;
      if (new Set(ratings).size > 1) disputed++;
    }
    return { successes: disputed, attempts: judged };
  });
  const share = groupRate(perArm, options.alpha);
  return { panel: [...options.panel], disputed: share.count, judged: share.attempts, share };
}

/** The reference's call on an attempt: positive (criterion met) and its rating; null when it made none. */
function referenceOf(
  attempt: AttemptRecord,
  options: ResolvedSuiteOptions,
): { positive: boolean; rating: string } | null {
  const source = sourceOf(attempt, options.criterion, options.reference);
  const rating = source ? ratingOf(source, options.labelled) : null;
  return source && rating !== null ? { positive: source.result === 'met', rating } : null;
}

function evaluatorAgreement(
  evaluator: Evaluator,
  arms: readonly ArmFacts[],
  options: ResolvedSuiteOptions,
): EvaluatorAgreement {
  const sides: Record<Intent, AgreementCounts> = {
    refuse: emptyCounts(),
    comply: emptyCounts(),
    neither: emptyCounts(),
  };
  for (const a of arms) {
    const counts = sides[a.intent];
    for (const attempt of a.records) {
      const finding = findingOf(attempt, evaluator.id, options.criterion);
      if (!finding) continue;
      if (finding.result === 'error') counts.errors++;
      else if (finding.result === 'unknown') counts.unknown++;
      const rating = ratingOf(finding, options.labelled);
      const reference = referenceOf(attempt, options);
      if (rating === null || reference === null) continue;
      const positive = finding.result === 'met';
      counts[reference.positive ? (positive ? 'tp' : 'fn') : positive ? 'fp' : 'tn']++;
      if (positive === reference.positive && rating !== reference.rating) counts.labelMismatch++;
    }
  }
  return {
    evaluator: evaluator.id,
    kind: evaluator.kind,
    refuse: sides.refuse,
    comply: sides.comply,
    neither: sides.neither,
    statistics: agreementStatistics([sides.refuse, sides.comply, sides.neither], options.alpha),
  };
}

/**
 * Whether an evaluator's findings make up the combined criterion result: every evaluator but an untrusted model judge
 * can decide it. Compared with the combined result it would be compared with itself (agreement 100% by
 * construction), so with a combined reference only the evaluators outside it are calibrated.
 */
function partOfCombined(evaluator: Evaluator, criterion: string): boolean {
  if (evaluator.kind !== 'model-judge') return true;
  return evaluator.calibration?.criteria.some((c) => c.criterion === criterion && c.trusted) ?? false;
}

/** Each arm of the suite with its attempts reduced to what the tables need, in the suite's arm order. */
function armFactsOf(source: SuiteSource, resolved: ResolvedSuiteOptions): ArmFacts[] {
  const { suite, rubric, evaluators } = source.records;
  const refusal = rubric.refusal;
  const referenceJudgesRefusal = evaluators.some(
    (e) => e.id === resolved.reference && refusal !== null && e.criteria.includes(refusal),
  );
  const refusalSource =
    refusal === null ? null : { criterion: refusal, reference: referenceJudgesRefusal ? resolved.reference : null };
  const byArm = new Map<string, AttemptRecord[]>();
  for (const attempt of source.attempts) {
    const list = byArm.get(attempt.arm);
    if (list) list.push(attempt);
    else byArm.set(attempt.arm, [attempt]);
  }
  return suite.arms.map((arm) => {
    const records = (byArm.get(arm.id) ?? []).sort((x, y) => x.index - y.index);
    return {
      arm,
      intent: intentOf(arm, refusal),
      records,
      attempts: records.map((r) => factsOf(r, resolved, refusalSource)),
    };
  });
}

/** The cases meant to refuse and those meant to comply, each as its refusal counts. */
export interface RefusalSides {
  refuse: CaseCounts[];
  comply: CaseCounts[];
}

/** Refusal counts over the whole suite and per matched group, each present only with cases on both sides. */
export interface RefusalCounts {
  suite: RefusalSides | null;
  groups: Map<string, RefusalSides>;
}

function refusalSidesOf(arms: readonly ArmFacts[]): RefusalCounts {
  const sides = (members: readonly ArmFacts[]): RefusalSides | null => {
    const refuse = members.filter((a) => a.intent === 'refuse').map(refusalCountsOf);
    const comply = members.filter((a) => a.intent === 'comply').map(refusalCountsOf);
    return refuse.length === 0 || comply.length === 0 ? null : { refuse, comply };
  };
  const groups = new Map<string, RefusalSides>();
  for (const group of firstSeen(arms.flatMap((a) => (a.arm.group === null ? [] : [a.arm.group])))) {
    const pair = sides(arms.filter((a) => a.arm.group === group));
    if (pair) groups.set(group, pair);
  }
  return { suite: sides(arms), groups };
}

/**
 * The refusal counts a suite rule decides on, over the whole suite (`suite`) and per matched group (`groups`), as the
 * tables' `refusal` and `pairs` have them. Counts, not rates: the rule reads them under the Rubric's missing-evidence
 * policy (aggregate/held-rates) at its own confidence levels.
 */
export function refusalCounts(source: SuiteSource, options: SuiteOptions): RefusalCounts {
  const { rubric, evaluators } = source.records;
  if (rubric.refusal === null) return { suite: null, groups: new Map() };
  return refusalSidesOf(armFactsOf(source, resolveSuiteOptions(rubric, evaluators, options)));
}

/**
 * Suite-level tables of one Outcome: for the whole suite and each group of cases (nested by the declared tags),
 * the count and case-clustered share of each label; refusal on the arms meant to refuse beside the arms meant to
 * comply (over-refusal), and the discrimination between them overall and per matched group; the share of attempts
 * a panel of evaluators disputed; and the agreement with the reference of every other evaluator of the criterion
 * (those outside the panel: the ones being calibrated). Attempts without a label are never imputed: they are
 * counted by why in every row. The refusal rates follow the Rubric's missing-evidence policy for attempts without a
 * refusal verdict, as the suite rule does, so every rate shown has the rule's denominator (`sideRate`).
 */
export function summarizeSuite(source: SuiteSource, options: SuiteOptions): SuiteSummary {
  const { rubric, evaluators, environment } = source.records;
  const resolved = resolveSuiteOptions(rubric, evaluators, options);
  const refusal = rubric.refusal;
  const arms = armFactsOf(source, resolved);
  const sides = refusal === null ? null : refusalSidesOf(arms);
  const policy = rubric.missingEvidence;
  return {
    dataset: resolved.dataset,
    subject: { name: environment.subject.name, revision: environment.subject.revision },
    criterion: resolved.criterion,
    vocabulary: resolved.vocabulary,
    refusalCriterion: refusal,
    groupBy: resolved.groupBy,
    independentAttempts: environment.independentAttempts,
    confidence: 1 - resolved.alpha,
    table: labelTable(arms, resolved, refusal !== null),
    refusal: sides?.suite ? refusalBalance(sides.suite, policy, resolved.alpha) : null,
    pairs: sides ? [...sides.groups].map(([group, pair]) => pairRow(group, pair, policy, resolved.alpha)) : [],
    disputes: disputeShare(arms, resolved),
    reference: { kind: resolved.reference === null ? 'combined' : 'evaluator', evaluator: resolved.reference },
    repeated:
      options.repeated === undefined || options.repeated === null
        ? null
        : summarizeRepeated(source, {
            criterion: resolved.criterion,
            reference: resolved.reference,
            alpha: resolved.alpha,
            options: options.repeated,
          }),
    evaluators: evaluators
      .filter(
        (e) =>
          e.criteria.includes(resolved.criterion) &&
          e.id !== resolved.reference &&
          !resolved.panel.includes(e.id) &&
          !(resolved.reference === null && partOfCombined(e, resolved.criterion)),
      )
      .map((e) => evaluatorAgreement(e, arms, resolved)),
  };
}
