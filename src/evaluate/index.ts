export {
  NoEvidence,
  type CheckContext,
  type CheckAnswer,
  type CheckFinding,
  type CriterionCheck,
  type EvaluatorDefinition,
  type ExpectFunction,
  type SoftAssertions,
} from './evaluator.js';
export {
  ANY_TARGET,
  createEvidenceRecorder,
  createObservationView,
  recorderOf,
  refersTo,
  samePath,
  topGrade,
  weakestGrade,
  type EvidenceRecorder,
  type JudgeExchange,
  type ObservationView,
} from './evidence.js';
export { gatherFindings, gradeFor, trustedFor, standInCase, type GatherInput } from './findings.js';
export { combineFindings } from './combine.js';
export {
  checkClaims,
  extractClaims,
  englishClaimExtractor,
  regexClaimExtractor,
  type ClaimCheckOptions,
  type ClaimExtractor,
  type ClaimPattern,
  type ExtractedClaim,
  type SourcedClaim,
} from './claims.js';
export { replyText, keywordRefusalClassifier, type ReplyClass, type ReplyClassifier } from './reply.js';
export {
  matcherMessage,
  hasEffect,
  requestedTool,
  fileChanged,
  exitedWith,
  insertedRows,
  replyClassifiedAs,
  supportedClaims,
  type MatcherOutcome,
  type ToolRequestFilter,
  type FileExpectation,
  type FileContentOptions,
  type RowFilter,
  type SupportedClaimsOptions,
} from './matchers.js';
export {
  evaluatorVerdict,
  type ExpectedVerdict,
  type VerdictScenario,
  type VerdictOutcome,
} from './verdict-matcher.js';
export {
  mechanicalEvaluator,
  modelJudge,
  humanLabels,
  parseJudgeLabel,
  JudgeReplyError,
  type MechanicalEvaluatorOptions,
  type ModelJudgeOptions,
  type JudgeModel,
  type HumanLabelsOptions,
} from './judges.js';
export {
  calibrate,
  withCalibration,
  evaluatorIdentity,
  type CalibrateOptions,
  type CalibrationFloor,
} from './calibration.js';
export { coverageTable, coveringEvidence } from './coverage.js';
export { capabilitiesAndFindings, isHealthy, type RoutingInput } from './findings-routing.js';
export {
  compareWriteActions,
  writeActionEvaluator,
  WRITE_EFFECTS,
  type ExpectedAction,
  type WriteActionComparison,
  type WriteActionEvaluatorOptions,
} from './write-actions.js';
export { recordedRewardEvaluator, type RecordedReward, type RecordedRewardOptions } from './recorded-reward.js';
export { changeClaimExtractor, type ChangeClaimPattern, type ChangeClaimExtractorOptions } from './write-claims.js';
export { scorer, isScorer, type ScoreFunction, type ScoreResult } from './scores.js';
export {
  autoevalsScorer,
  type AutoevalsScore,
  type AutoevalsScorerFunction,
  type AutoevalsScorerOptions,
} from './autoevals.js';
