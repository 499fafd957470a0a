import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { EvaluatorKind } from './evaluator.js';
import { RepeatedSummary } from './repeated-summary.js';
import { MissingVerdicts } from './suite-rule.js';

const count = lazySchema(() => z.number().int().min(0));

/**
 * A share over a suite's cases with its interval. Cases are the units (Miller 2024): the rate is the mean of each
 * case's share of its counted attempts, so a case repeated many times weighs no more than one run once.
 */
export const GroupRate = lazySchema(() =>
  z.object({
    /** Attempts counted in the numerator. */
    count,
    /**
     * Attempts in the denominator: those without a usable result are left out and counted elsewhere, except in the
     * refusal rates under the Rubric's `bound` policy, which keep them (`RefusalBalance`).
     */
    attempts: count,
    /** Cases with at least one attempt in the denominator. */
    cases: count,
    /** Mean of the per-case shares; null when no case has an attempt in the denominator. */
    rate: z.number().nullable(),
    lower: z.number().nullable(),
    upper: z.number().nullable(),
    /**
     * `korn-graubard`: two or more cases, the Clopper–Pearson interval on the case-clustered effective sample size
     * (statistics/clusteredRate); `wilson`: a single case, its attempts the units. Records written before
     * `korn-graubard` may say `cluster-clt` (a t interval on case means) or `pooled-wilson`.
     */
    method: z.enum(['korn-graubard', 'wilson', 'cluster-clt', 'pooled-wilson']).nullable(),
    /**
     * When cases repeat: how much the attempts' clustering by case inflates the variance over independent attempts
     * (1 + (n̄ − 1)·ICC); an attempt-level interval would be √(design effect) times too narrow. Null otherwise.
     */
    designEffect: z.number().nullable(),
  }),
);
export type GroupRate = z.infer<typeof GroupRate>;

/** A difference of two independent group rates (a − b) with its MOVER interval (Newcombe 1998; Zou & Donner 2008). */
export const RateDifference = lazySchema(() =>
  z.object({
    value: z.number().nullable(),
    lower: z.number().nullable(),
    upper: z.number().nullable(),
  }),
);
export type RateDifference = z.infer<typeof RateDifference>;

/** The tag values that define a group, outermost first; empty for the whole suite. */
export const GroupPath = lazySchema(() => z.array(z.object({ tag: z.string(), value: z.string() })));
export type GroupPath = z.infer<typeof GroupPath>;

/** Label distribution of one group of cases. */
export const LabelRow = lazySchema(() =>
  z.object({
    path: GroupPath,
    /** Cases (arms) in the group. */
    cases: count,
    /** Attempts run. */
    attempts: count,
    /** Attempts whose criterion result carries a label of the vocabulary. */
    labelled: count,
    /** Attempts without a label, by why; never imputed, always shown. */
    missing: z.object({
      /** Combined results only: evaluators disagreed (DISPUTED, or agreed on met/unmet but not on the label). */
      disputed: count,
      /** No evaluator could decide it (uncovered). */
      unknown: count,
      /** The tabulated evaluator failed, or the attempt did not complete (subject, harness or evaluator error, blocked). */
      error: count,
    }),
    /** One share per vocabulary label, in vocabulary order, over the labelled attempts. */
    labels: z.array(z.object({ label: z.string(), share: GroupRate })),
    /** Share of attempts whose refusal criterion was met, when the Rubric names one. */
    refusal: GroupRate.nullable(),
  }),
);
export type LabelRow = z.infer<typeof LabelRow>;

/**
 * Refusal on the arms meant to refuse (their Case expects the refusal criterion) beside refusal on the arms meant
 * to comply (their Case forbids it): correct refusal and over-refusal, and the difference (discrimination). Attempts
 * without a refusal verdict follow the Rubric's missing-evidence policy, as a suite rule's checks do: under `bound`
 * they stay in each rate's denominator and are held as failing (not refused where meant to refuse, refused where meant
 * to comply; so discrimination is at its lowest), each interval spanning them held either way; under `exclude` they
 * leave it. `withoutVerdict` counts them per rate.
 */
export const RefusalBalance = lazySchema(() =>
  z.object({
    correctRefusal: GroupRate,
    overRefusal: GroupRate,
    discrimination: RateDifference,
    /** Null in records written before riddle.outcome/5, whose rates were over the judged attempts, these uncounted. */
    withoutVerdict: z
      .object({ correctRefusal: MissingVerdicts, overRefusal: MissingVerdicts, discrimination: MissingVerdicts })
      .nullable(),
  }),
);
export type RefusalBalance = z.infer<typeof RefusalBalance>;

/**
 * One matched group (arms sharing a pairing key): refusal on each side and the discrimination between them, with
 * attempts without a refusal verdict as in `RefusalBalance`.
 */
export const PairRow = lazySchema(() =>
  z.object({
    group: z.string(),
    refuse: GroupRate,
    comply: GroupRate,
    /** Refusal on the arms meant to refuse minus refusal on those meant to comply: 1 is perfect judgment. */
    discrimination: RateDifference,
    /** Null in records written before riddle.outcome/5, whose rates were over the judged attempts, these uncounted. */
    withoutVerdict: z
      .object({ refuse: MissingVerdicts, comply: MissingVerdicts, discrimination: MissingVerdicts })
      .nullable(),
  }),
);
export type PairRow = z.infer<typeof PairRow>;

/** An evaluator's binary calls (criterion met = positive) against the reference, with what it could not call. */
export const AgreementCounts = lazySchema(() =>
  z.object({
    tp: count,
    fn: count,
    tn: count,
    fp: count,
    /** Of tp + fn + tn + fp: the evaluator's label differs from the reference's though both are on one side (multi-class). */
    labelMismatch: count,
    /** Findings that were evaluator errors (threw, or answered outside the vocabulary): never a call either way. */
    errors: count,
    /** Findings without evidence either way. */
    unknown: count,
  }),
);
export type AgreementCounts = z.infer<typeof AgreementCounts>;

/** Sensitivity, specificity (exact intervals) and agreement coefficients computed from AgreementCounts. */
export const AgreementStatistics = lazySchema(() =>
  z.object({
    sensitivity: z.object({ value: z.number().nullable(), lower: z.number(), upper: z.number() }),
    specificity: z.object({ value: z.number().nullable(), lower: z.number(), upper: z.number() }),
    raw: z.number().nullable(),
    cohenKappa: z.number().nullable(),
    gwetAC1: z.number().nullable(),
    krippendorffAlpha: z.number().nullable(),
  }),
);
export type AgreementStatistics = z.infer<typeof AgreementStatistics>;

/** How one evaluator's findings on the summarised criterion compare with the reference. */
export const EvaluatorAgreement = lazySchema(() =>
  z.object({
    evaluator: z.string(),
    kind: EvaluatorKind,
    /** On arms meant to refuse, on arms meant to comply, and on arms with neither intent (or no refusal criterion). */
    refuse: AgreementCounts,
    comply: AgreementCounts,
    neither: AgreementCounts,
    /** Over all three. */
    statistics: AgreementStatistics,
  }),
);
export type EvaluatorAgreement = z.infer<typeof EvaluatorAgreement>;

/** Attempts on which a declared panel of evaluators (e.g. two human annotators) disagreed on the label. */
export const DisputeShare = lazySchema(() =>
  z.object({
    panel: z.array(z.string()),
    /** Attempts where at least two panel members gave a label and they differ. */
    disputed: count,
    /** Attempts where at least two panel members gave a label. */
    judged: count,
    share: GroupRate,
  }),
);
export type DisputeShare = z.infer<typeof DisputeShare>;

/**
 * Suite-level tables of one Outcome: label distributions per group of cases (by declared tags), refusal on each
 * side of the matched controls, discrimination per matched group, disputes, and each evaluator's agreement with
 * the reference. Derived from the Outcome's attempts; stored with it so reports and artifacts need not recompute.
 */
export const SuiteSummary = lazySchema(() =>
  z.object({
    /** Declared key: summaries with the same key (one per subject on one dataset) are pooled across subjects. */
    dataset: z.string().min(1),
    subject: z.object({ name: z.string(), revision: z.string() }),
    /** The criterion tabulated; its labels (or met/unmet for a binary criterion) make the vocabulary. */
    criterion: z.string(),
    vocabulary: z.array(z.string()),
    /** The Rubric's refusal criterion, when it names one. */
    refusalCriterion: z.string().nullable(),
    /** Case tag names the table nests by, outermost first. */
    groupBy: z.array(z.string()),
    /** False for replayed or cached subjects: intervals then describe these recordings, not fresh samples. */
    independentAttempts: z.boolean(),
    /** Two-sided confidence of every interval. */
    confidence: z.number(),
    /** The whole suite first, then each group depth-first in the order cases were declared. */
    table: z.array(LabelRow),
    refusal: RefusalBalance.nullable(),
    pairs: z.array(PairRow),
    disputes: DisputeShare.nullable(),
    /**
     * What is tabulated and what the other evaluators are compared with: a declared evaluator's findings (e.g.
     * adjudicated human labels), or the combined criterion result the attempt verdicts use.
     */
    reference: z.object({ kind: z.enum(['evaluator', 'combined']), evaluator: z.string().nullable() }),
    /** Every evaluator of the criterion but the reference and the panel, compared with the reference. */
    evaluators: z.array(EvaluatorAgreement),
    /** pass^k and what goes with it, when the suite declared repeated attempts (`repeated`); null otherwise. */
    repeated: RepeatedSummary.nullable(),
  }),
);
export type SuiteSummary = z.infer<typeof SuiteSummary>;

/** A rate measured through an evaluator, next to the reference's, and corrected for the evaluator's error rates. */
export const CorrectedRate = lazySchema(() =>
  z.object({
    /** `refuse`: arms meant to refuse; `comply`: arms meant to comply (over-refusal lives here); `neither`: the rest. */
    intent: z.enum(['refuse', 'comply', 'neither']),
    /** Share the reference called positive (met), over the attempts it judged. */
    reference: z.object({ count, attempts: count, rate: z.number().nullable() }),
    /** Share the evaluator called positive, over the attempts it judged. */
    naive: z.object({ count, attempts: count, rate: z.number().nullable() }),
    /** Rogan–Gladen estimate with its delta-method interval; null when the calibration cannot support one. */
    corrected: z.object({ value: z.number(), lower: z.number(), upper: z.number(), clipped: z.boolean() }).nullable(),
    /** Why `corrected` is null. */
    note: z.string().nullable(),
  }),
);
export type CorrectedRate = z.infer<typeof CorrectedRate>;

/**
 * One evaluator's calibration against the reference, for one subject or pooled over every subject of a dataset:
 * binary agreement statistics and, per side, the naive and Rogan–Gladen corrected positive rates.
 */
export const CalibrationRow = lazySchema(() =>
  z.object({
    dataset: z.string(),
    evaluator: z.string(),
    kind: EvaluatorKind,
    /** Subject name; null for the row pooled over all subjects. */
    subject: z.string().nullable(),
    counts: AgreementCounts,
    statistics: AgreementStatistics,
    /**
     * Which calibration corrects the rates: `other-subjects` (Se and Sp from every other subject's attempts, so the
     * correction is out of sample) or `in-sample` (the same attempts: pooled rows, or a dataset with one subject).
     */
    correctedWith: z.enum(['other-subjects', 'in-sample']),
    rates: z.array(CorrectedRate),
  }),
);
export type CalibrationRow = z.infer<typeof CalibrationRow>;
