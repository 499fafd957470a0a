export type {
  Subject,
  SubjectResponse,
  ClaimInput,
  RoundFailure,
  RoundResources,
  ToolCaller,
  McpEndpoints,
  AttemptContext,
  ToolDefinition,
  ToolRunContext,
  RowObserver,
  AttemptIndependence,
  Isolation,
} from './subject.js';
export { functionSubject, type SubjectFunction, type FunctionSubjectOptions } from './function-subject.js';
export {
  commandSubject,
  DEFAULT_ENV_ALLOW,
  type CommandSubjectOptions,
  type IsolationOption,
} from './command-subject.js';
export type { IsolationEngine, IsolationBounds, IsolationAvailability } from './isolation/engine.js';
export { bubblewrap } from './isolation/bubblewrap.js';
export { httpSubject, type HttpSubjectOptions } from './http-subject.js';
export { replaySubject, type ReplaySubjectOptions } from './replay-subject.js';
export {
  trajectorySubject,
  recordedFollowUps,
  recordedRounds,
  type TrajectorySubjectOptions,
  type RecordedTrajectories,
} from './trajectory-subject.js';
export { attemptIndependence, independenceNotes } from './independence.js';
export type { RevisionSource } from './revision.js';
export { createToolGateway, ToolDeniedError, type ToolGateway } from './tool-gateway.js';
export { serveToolsOverMcp, type McpToolServer } from './mcp-server.js';
export {
  receiptFromOpenAI,
  receiptsFromAiSdk,
  type ReceiptOptions,
  type OpenAIResult,
  type AiSdkResult,
} from './receipts.js';
export { sqliteObserver, type SqliteObserverOptions } from './sqlite-observer.js';
export { folderFingerprint } from './file-snapshot.js';
export {
  observeAttempt,
  DEFAULT_RETAIN_FILE_BYTES,
  DEFAULT_ABORT_GRACE_MS,
  type AttemptPlan,
  type ObservedAttempt,
  type KeptSandbox,
} from './attempt.js';
export {
  adoptHarnessVersions,
  adoptRunFacts,
  captureEnvironment,
  captureRunFacts,
  captureRunFactsOf,
  forgetRunFacts,
  harnessVersions,
  runFacts,
  type EnvironmentInput,
  type RunFacts,
} from './environment.js';
export {
  attemptSecretValues,
  processSecretValues,
  redactVariable,
  redactText,
  redactData,
  secretValues,
} from './secrets.js';
export { checkDependency, type DependencyCheck } from './dependencies.js';
export { sweepLeftovers } from './leftovers.js';
export { eitherSignal } from './attempt-abort.js';
export {
  ProviderGateway,
  withProviderTraffic,
  requestFingerprint,
  DEFAULT_RETRY,
  retryDelayMs,
  recordingsFingerprint,
  slug,
  type ProviderOrigin,
  type ProviderTrafficOptions,
  type ProviderResponse,
  type Forward,
  type RetryPolicy,
} from './recording/index.js';
export {
  composition,
  CompositionDeclarationError,
  type Composition,
  type CompositionOptions,
  type CompositionCriterion,
  type CompositionFunction,
} from './composition.js';
export {
  compositionSuite,
  type CompositionSuiteOptions,
  type CompositionSuiteSubject,
  type HandoffDeclaration,
} from './composition-suite.js';
