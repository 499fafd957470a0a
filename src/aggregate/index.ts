export { attemptVerdict, type AttemptVerdictInput } from './attempt-verdict.js';
export { summarizeArm, type ArmInput, type DecidedArm, type SequentialDecision } from './arm-verdict.js';
export {
  judgeTrial,
  matchedControlJudgment,
  type DecidedTrial,
  type TrialInput,
  type TrialReason,
} from './trial-verdict.js';
export { compareRuns, type CompareOptions, type RunLabel } from './compare.js';
export {
  summarizeSuite,
  resolveSuiteOptions,
  groupRate,
  rateDifference,
  type SuiteOptions,
  type ResolvedSuiteOptions,
  type SuiteSource,
} from './suite.js';
export { calibrateAcrossSuites, agreementStatistics } from './suite-calibration.js';
export { trapGroups } from './traps.js';
export {
  decideSuiteRule,
  judgeBySuiteRule,
  decideCheck,
  combineChecks,
} from './suite-rule.js';
export { armPressure, netCapitulation } from './pressure.js';
export { armScores } from './score-distribution.js';
export { summarizeRepeated, passHatKRow, type RepeatedInput } from './repeated-suite.js';
export { attribute, summarizeCompositions } from './attribution.js';
