import { expect } from 'vitest';
import { riddleMatchers } from './matchers.js';

// riddle's matchers are available wherever trials are written.
expect.extend(riddleMatchers);

export { trial, testTrial, TrialVerdictError, type Trial } from './trial.js';
export { riddleMatchers } from './matchers.js';
export type { RiddleTaskMeta } from './meta.js';
export {
  TrialDeclarationError,
  type TrialDeclaration,
  type SuiteDeclaration,
  type ArmDeclaration,
  type SuiteCaseDeclaration,
  type RubricDeclaration,
  type CriterionDeclaration,
  type RepeatDeclaration,
  falsePremiseTrap,
  missingInformationTrap,
  impossibleConstraintTrap,
  repeatedNudgeTrap,
  dialectDistortionTrap,
  forbiddenMethodTrap,
  unsupportedClaimTrap,
  trapChain,
  TrapDeclarationError,
  type TrapChainOptions,
  type TrapGroup,
  type DownstreamTask,
} from '../run/index.js';
export {
  functionSubject,
  commandSubject,
  httpSubject,
  replaySubject,
  sqliteObserver,
  receiptFromOpenAI,
  receiptsFromAiSdk,
  ToolDeniedError,
  composition,
  compositionSuite,
  CompositionDeclarationError,
  type Composition,
  type CompositionOptions,
  type CompositionCriterion,
  type CompositionFunction,
  type CompositionSuiteOptions,
  type CompositionSuiteSubject,
  type HandoffDeclaration,
  type Subject,
  type SubjectFunction,
  type SubjectResponse,
  type AttemptContext,
  type ToolDefinition,
  type ToolRunContext,
  type RowObserver,
  type FunctionSubjectOptions,
  type CommandSubjectOptions,
  type HttpSubjectOptions,
  type ReplaySubjectOptions,
  type SqliteObserverOptions,
} from '../observe/index.js';
export {
  mechanicalEvaluator,
  modelJudge,
  humanLabels,
  scorer,
  autoevalsScorer,
  calibrate,
  withCalibration,
  englishClaimExtractor,
  regexClaimExtractor,
  keywordRefusalClassifier,
  type CriterionCheck,
  type CheckContext,
  type EvaluatorDefinition,
  type ObservationView,
  type MechanicalEvaluatorOptions,
  type ModelJudgeOptions,
  type HumanLabelsOptions,
  type ScoreFunction,
  type ScoreResult,
  type AutoevalsScorerOptions,
  type ClaimExtractor,
  type ReplyClassifier,
} from '../evaluate/index.js';
export type { Outcome, Verdict, AttemptStatus, EvidenceGrade, EffectClass } from '../model/index.js';
/** A dependency as a trial declares it (its `description` may be omitted). */
export type { DependencyDeclaration as Dependency } from '../run/index.js';
