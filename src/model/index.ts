export { clippedText, errorText, JsonValue, jsonProblem, sameData, setOwnMember } from './json.js';
export { lazySchema } from './lazy-schema.js';
export { systemClock, type Clock } from './clock.js';
export {
  canonicalJson,
  jsonDifferences,
  type JsonDifference,
  canonicalJsonMember,
  canonicalJsonPair,
  canonicalJsonSha256,
  fingerprint,
  sha256,
  Sha256List,
  type WrittenMember,
} from './fingerprint.js';
export {
  AttemptStatus,
  ATTEMPT_STATUSES,
  Verdict,
  VERDICTS,
  EvidenceGrade,
  gradeRank,
  gradeCovers,
  EffectClass,
  effectRank,
  ArmRole,
  FindingOwner,
  TestOutcome,
} from './vocabulary.js';
export { ArmReason, ArmRule } from './reasons.js';
export { AttemptReason } from './attempt-reasons.js';
export { Case, CASE_SCHEMA, StopCondition, Dependency, Pressure } from './case.js';
export {
  AttemptTrap,
  CaseTrap,
  DistortionStyle,
  ExactShare,
  TrapArmSummary,
  TrapGroupSummary,
  TrapChainMember,
  TrapKind,
  trapKindOf,
  TrapMemberSpec,
  TrapRole,
  TrapSpec,
} from './pressure-trap.js';
export { Rubric, RUBRIC_SCHEMA, Criterion, CriterionTarget, Threshold } from './rubric.js';
export { ScoreSummary, SCORE_BINS } from './score-summary.js';
export { Evaluator, EVALUATOR_SCHEMA, EvaluatorKind, CriterionCalibration } from './evaluator.js';
export {
  Calibration,
  CALIBRATION_SCHEMA,
  CalibratedCriterion,
  CalibrationItem,
  LabelledControl,
} from './calibration.js';
export { Environment, ENVIRONMENT_SCHEMA, SubjectIdentity } from './environment.js';
export {
  TrialSuite,
  TRIAL_SUITE_SCHEMA,
  StoppingRule,
  RepetitionPolicy,
  Arm,
  AggregationRules,
  SuiteSummaryOptions,
} from './trial-suite.js';
export {
  Observation,
  Round,
  Claim,
  CapturedOutput,
  ProcessExit,
  FileChange,
  ToolRequest,
  Receipt,
  RowChanges,
  Resources,
  replyObservation,
} from './observation.js';
export {
  EvidenceRef,
  EvidencePointer,
  CriterionFinding,
  CriterionResult,
  OverruledFinding,
  UncoveredReason,
  ClaimCheck,
  Finding,
  FindingSeverity,
  findingId,
  findingSeverity,
  MAX_FINDING_ATTEMPTS,
} from './finding.js';
export { FindingsFile, FINDINGS_SCHEMA, ReturnedClaim, ReturnedFinding, returnsTo } from './findings-file.js';
export {
  CapabilityBound,
  CapabilityClaim,
  CapabilityScope,
  ClaimSource,
  capabilityClaims,
  claimScope,
} from './capability.js';
export {
  CompositionSuite,
  COMPOSITION_SUITE_SCHEMA,
  CompositionNode,
  Handoff,
  Payload,
  SchemaCheck,
  HandoffObservation,
  OwnCriterionResult,
  CompositionStep,
  CompositionStop,
  CompositionTrace,
  AttributionLink,
  Attribution,
  CompositionResult,
  CompositionSummary,
} from './composition.js';
export {
  Outcome,
  OUTCOME_SCHEMA,
  AttemptRecord,
  ArmSummary,
  ArmDecision,
  TrialJudgment,
  MatchedControlJudgment,
  UnsettledReading,
  AttemptPressure,
  ArmPressure,
  CoverageRow,
} from './outcome.js';
export { trialTestResult, type TrialTestResult } from './test-result.js';
export { RunIndex, RUN_SCHEMA } from './run-index.js';
export {
  DeclaredPolicy,
  Registration,
  Registrations,
  REGISTRATIONS_SCHEMA,
  RegistrationCheck,
  PolicyChange,
} from './registration.js';
export {
  RECORDING_SCHEMA,
  RecordedRequest,
  RecordedResponse,
  RecordedExchange,
  AttemptRecording,
} from './recording.js';
export {
  PriceTable,
  Cost,
  Budget,
  BudgetRecord,
  CostBreakdown,
  ProviderRetry,
  ProviderTraffic,
  receiptCostUsd,
  costOf,
  costBreakdown,
  costBreakdownOf,
  costRow,
} from './spending.js';
export { TrialProgress } from './progress.js';
export {
  Comparison,
  COMPARISON_SCHEMA,
  ComparedRun,
  PinnedChange,
  ArmSide,
  DiscordantPairs,
  ArmComparison,
  CompositionComparison,
  CaseDifference,
  SuiteCheckSide,
  SuiteCheckComparison,
  SuiteRuleComparison,
  TrialComparison,
  RunSide,
} from './comparison.js';
export { RECORD_SCHEMAS, recordJsonSchema, type RecordName } from './records.js';
export { migrate, RecordError } from './migrate.js';
export {
  SuiteSummary,
  GroupRate,
  RateDifference,
  GroupPath,
  LabelRow,
  RefusalBalance,
  PairRow,
  AgreementCounts,
  AgreementStatistics,
  EvaluatorAgreement,
  DisputeShare,
  CorrectedRate,
  CalibrationRow,
} from './suite-summary.js';
export { RecordedConversation, RecordedRound, RecordedToolCall } from './recorded-conversation.js';
export {
  RepeatedOptions,
  RepeatedVerdictRule,
  RepeatedSummary,
  PassHatKRow,
} from './repeated-summary.js';
export {
  SUITE_RULE_RATES,
  SuiteRuleRate,
  SuiteRuleCondition,
  SuiteRuleVerdict,
  SuiteRuleCheck,
  DecidedSuiteCheck,
  MissingVerdicts,
  CheckMissingVerdicts,
  SuiteRuleDecision,
  describeSuiteCheck,
  missingVerdictsWords,
  suiteRateWords,
} from './suite-rule.js';
