import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { RateDifference } from './suite-summary.js';
import { CheckMissingVerdicts, SuiteRuleCheckRate, SuiteRuleVerdict } from './suite-rule.js';
import { ArmRole, Verdict } from './vocabulary.js';

export const COMPARISON_SCHEMA = 'riddle.comparison/3';

const count = lazySchema(() => z.number().int().min(0));

/** Which of the two compared runs. */
export const RunSide = lazySchema(() => z.enum(['a', 'b']));
export type RunSide = z.infer<typeof RunSide>;

/** One compared run, as named by whoever asked for the comparison. */
export const ComparedRun = lazySchema(() =>
  z.object({
    /** What the run was given as (a path, a label). */
    label: z.string(),
    /** The run index's id, when the Outcomes came from a run index. */
    runId: z.string().nullable(),
    /** Outcomes in the run. */
    outcomes: count,
  }),
);
export type ComparedRun = z.infer<typeof ComparedRun>;

/** A pinned record that differs between the two Outcomes of a trial. */
export const PinnedChange = lazySchema(() =>
  z.object({
    record: z.enum(['subject', 'suite', 'case', 'rubric', 'evaluator', 'environment']),
    /** Case (arm) id or evaluator id; null for the records a trial has one of. */
    id: z.string().nullable(),
    /**
     * Each side's identity of the record: the subject's `name@revision`; the pinned fingerprint of a case, the
     * rubric, an evaluator or the suite; the fingerprint of the Environment without its subject. Null when the
     * record is absent from that side.
     */
    a: z.string().nullable(),
    b: z.string().nullable(),
    /** Fields that differ, as dotted paths at most two deep; empty when the record is absent from one side. */
    fields: z.array(z.string()),
  }),
);
export type PinnedChange = z.infer<typeof PinnedChange>;

/** One arm's results in one run, on the denominator its arm rule decided on (DESIGN.md contract 8). */
export const ArmSide = lazySchema(() =>
  z.object({
    verdict: Verdict,
    /** Attempts run. */
    attempts: count,
    /**
     * The arm decision's denominator (its Outcome's `decision.attempts`): under the Rubric's missingEvidence `bound`
     * every attempt run, those without a verdict (errors, blocks, uncovered criteria) counted as not passing; under
     * `exclude` the attempts with a verdict, the other `attempts − decided` excluded. DISPUTED attempts are in it.
     * Comparisons written before this was fixed left UNKNOWN and DISPUTED attempts out under either policy; there
     * too `attempts − decided` counts the attempts left out of the rate.
     */
    decided: count,
    /** PASS attempts (the decision's successes). */
    successes: count,
    /** successes / decided, the rate the arm was decided on; null when the denominator is empty. */
    rate: z.number().nullable(),
  }),
);
export type ArmSide = z.infer<typeof ArmSide>;

/**
 * Paired binary outcomes of the two runs and the exact McNemar test on the discordant ones (McNemar 1947; exact
 * form: aOnly of aOnly + bOnly against Binomial(aOnly + bOnly, ½)).
 */
export const DiscordantPairs = lazySchema(() =>
  z.object({
    /** `case`: each case ran once in both runs, its one outcome is the unit; `attempt`: attempts paired by (arm, index). */
    unit: z.enum(['case', 'attempt']),
    /** Pairs with a PASS or failure verdict (FAIL, PARTIAL, CONTRADICTED) in both runs. */
    pairs: count,
    bothPass: count,
    bothFail: count,
    /** Pairs that passed in run A only (McNemar's b). */
    aOnly: count,
    /** Pairs that passed in run B only (McNemar's c). */
    bOnly: count,
    /** Two-sided exact p-value. */
    pValue: z.number(),
    /**
     * Units left out of the pairs, never imputed: `undecided`, without a PASS or failure verdict (UNKNOWN, e.g. an
     * error, or DISPUTED) in either run; `oneRunOnly`, present in one run only.
     */
    leftOut: z.object({ undecided: count, oneRunOnly: count }),
  }),
);
export type DiscordantPairs = z.infer<typeof DiscordantPairs>;

/** One arm (case) of a trial compared across the runs. */
export const ArmComparison = lazySchema(() =>
  z.object({
    arm: z.string(),
    role: ArmRole,
    a: ArmSide,
    b: ArmSide,
    /**
     * Rate A − rate B (each side's `rate`, on its decision's denominator) treating the runs as independent samples,
     * with a MOVER interval from Wilson intervals on those denominators (Newcombe 1998); conservative when the
     * attempts are in fact paired.
     */
    difference: RateDifference,
    /** This arm's attempt pairs, when attempts pair by (arm, index); null otherwise. */
    pairs: DiscordantPairs.nullable(),
  }),
);
export type ArmComparison = z.infer<typeof ArmComparison>;

/**
 * Paired difference of per-case success rates, A − B, with cases as the units (Miller 2024, arXiv 2411.00640):
 * dᵢ = rate_Aᵢ − rate_Bᵢ, SE = √(Var(d)/m), t interval with m − 1 degrees of freedom.
 */
export const CaseDifference = lazySchema(() =>
  z.object({
    /** Cases with a rate in both runs (m); a case whose denominator is empty in a run is left out (see `notes`). */
    units: count,
    /** Mean per-case rate in each run over those cases. */
    meanA: z.number(),
    meanB: z.number(),
    /** Mean of dᵢ. */
    mean: z.number(),
    se: z.number(),
    lower: z.number(),
    upper: z.number(),
  }),
);
export type CaseDifference = z.infer<typeof CaseDifference>;

/**
 * One composition of a Composition Suite in both runs: its version on each side, its own verdict and share, and its
 * attempts paired by (arm, index) where it ran in both (success: valid output and every own criterion met).
 */
export const CompositionComparison = lazySchema(() =>
  z.object({
    composition: z.string(),
    owner: z.string(),
    /** Its version in each run; null where the run's graph had no such composition. */
    version: z.object({ a: z.string().nullable(), b: z.string().nullable() }),
    changed: z.boolean(),
    verdict: z.object({ a: Verdict.nullable(), b: Verdict.nullable() }),
    successes: z.object({ a: count, b: count }),
    ran: z.object({ a: count, b: count }),
    /** Null when no attempt index ran it in both runs. */
    pairs: DiscordantPairs.nullable(),
  }),
);
export type CompositionComparison = z.infer<typeof CompositionComparison>;

/**
 * One run's reading of a suite rule's check, copied from its Outcome's `suiteRule.checks` (model/suite-rule): the
 * threshold it was decided against, its case-clustered value and interval at the rule's confidence, and its decision.
 */
export const SuiteCheckSide = lazySchema(() =>
  z.object({
    threshold: z.number(),
    /** The rate on the decision's denominator (under `bound`, attempts without a verdict held as failing); null when no case ran. */
    value: z.number().nullable(),
    cases: count,
    /** At the rule's confidence; under `bound` it spans the attempts without a verdict held either way. */
    interval: z.object({ lower: z.number(), upper: z.number() }).nullable(),
    decision: SuiteRuleVerdict,
    /** The check's attempts without a verdict and what they did; null in Outcomes written before riddle.outcome/5. */
    withoutVerdict: CheckMissingVerdicts.pick({
      policy: true,
      attempts: true,
      cases: true,
      ifFailing: true,
      ifPassing: true,
    }).nullable(),
  }),
);
export type SuiteCheckSide = z.infer<typeof SuiteCheckSide>;

/** One check of a data-driven suite's declared rule (a rate over the suite or a matched group) in both runs. */
export const SuiteCheckComparison = lazySchema(() =>
  z.object({
    rate: SuiteRuleCheckRate,
    /** The matched group; null for the whole suite. */
    group: z.string().nullable(),
    bound: z.enum(['atLeast', 'atMost']),
    /** Null in the run whose rule has no such check. */
    a: SuiteCheckSide.nullable(),
    b: SuiteCheckSide.nullable(),
    /**
     * value A − value B with a MOVER interval from the two runs' own case-clustered intervals (Newcombe 1998, as the
     * rule's discrimination): unpaired, so conservative when the runs share cases. Null fields when a side has no
     * value or interval, or the two rules' confidences differ.
     */
    difference: RateDifference,
  }),
);
export type SuiteCheckComparison = z.infer<typeof SuiteCheckComparison>;

/** A data-driven suite's declared rule (`summary.rule`, pass^k) in both runs: its verdict and each check side by side. */
export const SuiteRuleComparison = lazySchema(() =>
  z.object({
    /** The rule's verdict in each run; null where that run's Outcome has no rule. */
    verdict: z.object({ a: SuiteRuleVerdict.nullable(), b: SuiteRuleVerdict.nullable() }),
    /** Two-sided confidence of each run's check intervals (its rule's); null where that run has no rule. */
    confidence: z.object({ a: z.number().nullable(), b: z.number().nullable() }),
    /** Run A's checks in its order, then those only run B's rule has. */
    checks: z.array(SuiteCheckComparison),
  }),
);
export type SuiteRuleComparison = z.infer<typeof SuiteRuleComparison>;

/** One trial present in both runs. */
export const TrialComparison = lazySchema(() =>
  z.object({
    trial: z.object({ id: z.string(), name: z.string(), file: z.string() }),
    outcomes: z.object({ a: z.string(), b: z.string() }),
    verdict: z.object({ a: Verdict, b: Verdict }),
    /**
     * What the pinned records say was varied: `identical` (a replication), `subject-only` (a clean comparison of
     * subjects), `beyond-subject` (a case, the rubric, an evaluator, the suite or the environment differs too, so
     * differences cannot be put down to the subject alone).
     */
    scope: z.enum(['identical', 'subject-only', 'beyond-subject']),
    changes: z.array(PinnedChange),
    arms: z.array(ArmComparison),
    /** Arms in one run only: listed, never compared. */
    unmatchedArms: z.array(z.object({ run: RunSide, arm: z.string() })),
    /** Null when fewer than 3 cases have a rate in both runs (see `notes`). */
    cases: CaseDifference.nullable(),
    /** Null when the runs' outcomes do not pair (see `notes`). */
    mcnemar: DiscordantPairs.nullable(),
    /**
     * Which pairing was used and why, and what limits the reading: among them, per run, its attempts without a
     * verdict and how its rates took them (counted as not passing, or excluded), and cases left out of `cases`.
     */
    notes: z.array(z.string()),
    /** Per composition when either run's subject was a Composition Suite; [] otherwise. */
    compositions: z.array(CompositionComparison),
    /**
     * The declared suite rule's checks in both runs, when either run's Outcome was decided by one; null when neither
     * was, and in comparisons written before riddle.comparison/3, which did not read the rules.
     */
    suiteRule: SuiteRuleComparison.nullable(),
  }),
);
export type TrialComparison = z.infer<typeof TrialComparison>;

/** Two runs' Outcomes paired by trial id and then by arm (case) id: what changed and by how much. */
export const Comparison = lazySchema(() =>
  z.object({
    schema: z.literal(COMPARISON_SCHEMA),
    a: ComparedRun,
    b: ComparedRun,
    /** Two-sided confidence of every interval. */
    confidence: z.number(),
    /** Trials in both runs, by trial id (plain code-unit order). */
    trials: z.array(TrialComparison),
    /** Trials without a partner: in one run only, or a second Outcome of a trial id within one run. */
    unmatched: z.array(
      z.object({
        run: RunSide,
        trial: z.object({ id: z.string(), name: z.string(), file: z.string() }),
        reason: z.string(),
      }),
    ),
    summary: z.object({
      compared: count,
      verdictChanges: count,
      beyondSubject: count,
      unmatchedTrials: count,
      unmatchedArms: count,
    }),
  }),
);
export type Comparison = z.infer<typeof Comparison>;
