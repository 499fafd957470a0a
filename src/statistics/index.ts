/**
 * riddle statistics: pure, dependency-free numerics for repeated, matched and judged trials.
 * Every formula cites its source next to its function; see STATISTICS.md for the defaults.
 */
export type {
  AttemptsToSettle,
  Bounds,
  ClusterInput,
  Confusion,
  ConfusionCounts,
  Interval,
  IntervalOptions,
  McNemarResult,
  OperatingCharacteristics,
  PairedDifference,
  RateWithInterval,
  Rating,
  RoganGladenInput,
  RoganGladenResult,
  SensitivitySpecificity,
  Sided,
  StoppingDecision,
  StoppingRuleSpec,
  SuiteRate,
} from './types.js';

// Special functions and quantiles
export { lnBeta, lnGamma } from './gamma.js';
export { regularizedIncompleteBeta } from './incomplete-beta.js';
export { betaQuantile } from './beta-quantile.js';
export { normalQuantile } from './normal-quantile.js';
export { tQuantile } from './t-quantile.js';

// Intervals for one arm
export { clopperPearson } from './clopper-pearson.js';
export { wilson } from './wilson.js';
export { jeffreys } from './jeffreys.js';

// Verdict helpers
export { attemptsToCertify, attemptsToSettle } from './certify.js';
export { binomialVerdict, type BinomialVerdict } from './binomial-verdict.js';
export { TIE_TOLERANCE, atMost, clearlyBelow } from './tie.js';
export { boundedMeanInterval, quantileSorted, unitHistogram, type BoundedMeanInterval } from './bounded-mean.js';

// Repeated-attempt metrics
export { atLeastJOfK, passAtK, passHatK } from './repeated-attempts.js';
export { passAtKInterval, passHatKInterval } from './repeated-attempt-intervals.js';

// Stopping rules
export { validateStoppingRule } from './validate-stopping-rule.js';
export { stoppingDecision } from './stopping-decision.js';
export { operatingCharacteristics, sequentialOperatingCharacteristics } from './operating-characteristics.js';
export { describeStoppingRule } from './describe-stopping-rule.js';

// Seeded randomness
export { seededRandom } from './seeded-random.js';
export { shuffle } from './shuffle.js';

// Suites and paired comparisons
export { clusteredRate } from './clustered-rate.js';
export { clusterBootstrapRate } from './cluster-bootstrap.js';
export { pairedDifference } from './paired-difference.js';
export { mcnemarExact } from './mcnemar.js';
export { newcombeDifference } from './newcombe.js';

// Judges: correction, calibration, agreement
export { roganGladen } from './rogan-gladen.js';
export { confusion, sensitivitySpecificity } from './confusion.js';
export { rawAgreement } from './raw-agreement.js';
export { cohenKappa } from './cohen-kappa.js';
export { gwetAC1 } from './gwet-ac1.js';
export { krippendorffAlpha } from './krippendorff-alpha.js';
