export { trial, testTrial, TrialVerdictError, type Trial } from './trial.js';
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
} from '../run/index.js';
export { functionSubject, type Subject, type SubjectFunction, type AttemptContext, type ToolDefinition } from '../observe/index.js';
export type { CriterionCheck, CheckContext, EvaluatorDefinition } from '../evaluate/index.js';
