/**
 * Types of the statistics layer: plain, JSON-serialisable data only.
 * Behaviour lives in the sibling modules; each cites its source next to the formula.
 */

/**
 * Which tails an interval bounds.
 * - `'two'`: each tail has error alpha/2, so the interval has confidence 1 − alpha.
 * - `'one'`: each bound is a one-sided (1 − alpha) bound: P(p < lower) ≤ alpha and, separately,
 *   P(p > upper) ≤ alpha. Use it to decide a verdict against a threshold.
 */
export type Sided = 'two' | 'one';

/** Options shared by the binomial intervals. */
export interface IntervalOptions {
  /** Error rate, in (0, 1). Default 0.05. */
  alpha?: number;
  /** Default `'two'`. */
  sided?: Sided;
}

/** A confidence interval for a binomial proportion. */
export interface Interval {
  /** Lower bound, a proportion in [0, 1]. */
  lower: number;
  /** Upper bound, a proportion in [0, 1]. */
  upper: number;
  method: 'clopper-pearson' | 'wilson' | 'jeffreys';
  /** 1 − alpha. With `sided: 'one'` it is the confidence of each bound separately. */
  confidence: number;
  sided: Sided;
}

/** Lower and upper bound of a derived quantity (a proportion in [0, 1]). */
export interface Bounds {
  lower: number;
  upper: number;
}

/** What additional attempts would settle an arm's verdict (see `attemptsToSettle`). */
export interface AttemptsToSettle {
  /** Fewest additional attempts, all successes, that make the verdict PASS; null if more than 100,000. */
  toPass: number | null;
  /** Fewest additional attempts, all failures, that make the verdict FAIL; null if more than 100,000. */
  toFail: number | null;
}

/** Verdict of a stopping rule after some attempts: keep going, or stop with a verdict. */
export type StoppingDecision = 'continue' | 'pass' | 'fail' | 'inconclusive';

/**
 * A stopping rule, declared before any result is seen. Counts are attempts; rates are proportions.
 * - `fixed`: run exactly `n` attempts, then PASS iff the one-sided (1 − alpha) Clopper–Pearson lower
 *   bound is ≥ `threshold`, FAIL iff the upper bound is < `threshold`, otherwise inconclusive.
 * - `curtail`: the `fixed` rule, stopped as soon as the remaining attempts cannot change its verdict.
 * - `sprt`: Wald's sequential probability ratio test of p ≤ p0 against p ≥ p1, truncated at `nMax`.
 * - `confidence-sequence`: anytime-valid beta-binomial mixture confidence sequence at level alpha
 *   (prior Beta(priorA, priorB), default Beta(½, ½)), truncated at `nMax`.
 */
export type StoppingRuleSpec =
  | { kind: 'fixed'; n: number; threshold: number; alpha: number }
  | { kind: 'curtail'; n: number; threshold: number; alpha: number }
  | { kind: 'sprt'; p0: number; p1: number; alpha: number; beta: number; nMax: number }
  | {
      kind: 'confidence-sequence';
      threshold: number;
      alpha: number;
      nMax: number;
      priorA?: number;
      priorB?: number;
    };

/** Exact behaviour of a stopping rule when every attempt succeeds independently with probability p. */
export interface OperatingCharacteristics {
  /** True success probability the figures are computed at. */
  p: number;
  /** Probability that the rule stops with PASS. */
  pPass: number;
  /** Probability that the rule stops with FAIL. */
  pFail: number;
  /** Probability that the rule stops inconclusive. */
  pInconclusive: number;
  /** Expected number of attempts run before the rule stops. */
  expectedN: number;
}

/** One case of a suite: the attempts of a case form a cluster. */
export interface ClusterInput {
  /** Attempts of this case that succeeded. */
  successes: number;
  /** Scored attempts of this case (≥ 1). */
  attempts: number;
}

/** A suite-level success rate with case-clustered uncertainty. */
export interface SuiteRate {
  /** Mean of the per-case success rates (each case weighs the same). */
  mean: number;
  /** Standard error of `mean`, with cases as the sampling units. */
  se: number;
  /** Lower bound of the two-sided (1 − alpha) interval, clipped to [0, 1]. */
  lower: number;
  /** Upper bound of the two-sided (1 − alpha) interval, clipped to [0, 1]. */
  upper: number;
  method: 'korn-graubard' | 'cluster-bootstrap';
  /** Number of cases (clusters). */
  cases: number;
  /** Total attempts over all cases. */
  attempts: number;
  /** Korn–Graubard: the effective (degrees-of-freedom adjusted) sample size the interval rests on; else null. */
  effectiveAttempts: number | null;
  /** Kish design effect 1 + (n₀ − 1)·icc: how much pooling all attempts understates the variance. */
  designEffect: number;
  /** ANOVA estimate of the intraclass correlation of attempts within a case (0 when not estimable). */
  icc: number;
  /** Two-sided Wilson interval that pools all attempts as if independent, for comparison only. */
  pooledWilson: Bounds;
}

/** Mean difference of paired measurements a − b with a t interval. */
export interface PairedDifference {
  mean: number;
  se: number;
  lower: number;
  upper: number;
  /** Number of pairs. */
  pairs: number;
}

/** Exact McNemar test on the discordant pairs. */
export interface McNemarResult {
  /** Pairs where only the first run succeeded. */
  b: number;
  /** Pairs where only the second run succeeded. */
  c: number;
  /** Two-sided exact p-value against Binomial(b + c, ½). */
  pValue: number;
}

/** A rate measured through an imperfect judge, with the judge's calibration counts. */
export interface RoganGladenInput {
  /** Attempts the judge called positive. */
  positives: number;
  /** Attempts judged. */
  n: number;
  /** Judge on labelled positive controls: true positives and false negatives. */
  sensitivity: { tp: number; fn: number };
  /** Judge on labelled negative controls: true negatives and false positives. */
  specificity: { tn: number; fp: number };
}

/** Rogan–Gladen corrected rate. */
export interface RoganGladenResult {
  /** positives / n, uncorrected. */
  naive: number;
  /** Corrected rate, clipped to [0, 1]. */
  corrected: number;
  /** Delta-method standard error, including the calibration counts. */
  se: number;
  /** Lower bound of the two-sided (1 − alpha) Wald interval, clipped to [0, 1]. */
  lower: number;
  /** Upper bound of the two-sided (1 − alpha) Wald interval, clipped to [0, 1]. */
  upper: number;
  /** Whether the unclipped estimate fell outside [0, 1]. */
  clipped: boolean;
}

/** Counts of a judge's verdicts against labelled controls. */
export interface ConfusionCounts {
  /** Labelled positive, judged positive. */
  tp: number;
  /** Labelled positive, judged negative. */
  fn: number;
  /** Labelled negative, judged negative. */
  tn: number;
  /** Labelled negative, judged positive. */
  fp: number;
}

/** Confusion counts plus the controls the judge gave no verdict on (never counted as errors). */
export interface Confusion extends ConfusionCounts {
  unjudged: number;
}

/** A rate with its exact (Clopper–Pearson) interval. `value` is NaN when there is no control. */
export interface RateWithInterval {
  value: number;
  lower: number;
  upper: number;
}

/** Sensitivity and specificity of a judge, each with an exact interval and its counts. */
export interface SensitivitySpecificity {
  sensitivity: RateWithInterval & { tp: number; fn: number };
  specificity: RateWithInterval & { tn: number; fp: number };
}

/** A nominal rating; null means missing (the rater gave none). */
export type Rating = string | null;
