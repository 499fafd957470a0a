export { runTrial, type TrialPlan, type RunServices } from './run-trial.js';
export { AttemptStream, type StreamedAttempts } from './attempt-stream.js';
export { HeldAttempts, type AttemptSink } from './held-attempts.js';
export { leanAttempt } from './lean-attempts.js';
export { trialProgress } from './progress.js';
export { runAttempt, type AttemptSetup } from './attempt.js';
export { assembleOutcome, declarationWarnings, type OutcomeParts } from './outcome.js';
export { scheduleAttempts, attemptSeed, AttemptSchedule, type AttemptSlot } from './schedule.js';
export { stoppingRuleFor, describeRule, sequentialFor } from './stopping.js';
export { rejudgeOutcome, type RejudgeOptions } from './rejudge.js';
export {
  resolveTrial,
  TrialDeclarationError,
  DEFAULTS,
  type ResolvedTrial,
  type DeclarationSite,
  type ProjectSettings,
  type TrialDeclaration,
  type SuiteDeclaration,
  type ArmDeclaration,
  type SuiteCaseDeclaration,
  type RubricDeclaration,
  type CriterionDeclaration,
  type RepeatDeclaration,
  type DependencyDeclaration,
} from './declaration.js';
export { pinFixtures } from './fixtures.js';
export {
  checkRegistration,
  declaredPolicy,
  recordRegistration,
  REGISTRATIONS_FILE,
  writePendingRegistrations,
} from './registrations.js';
export { BudgetMeter } from './budget.js';
export {
  openRunLedger,
  readRunLedger,
  RunBudgetGate,
  RunLedger,
  RUN_LEDGER_SCHEMA,
  RUN_BUDGET_VARIABLES,
  resolveRunBudget,
  type RunBudgetDeclaration,
  type RunBudgetShare,
} from './run-budget.js';
export {
  prepareProviders,
  resolveSpending,
  type PreparedProviders,
  type ProvidersDeclaration,
  type ProviderDeclaration,
  type ResolvedProviders,
  type ResolvedSpending,
} from './providers.js';
export { MAX_TIMER_MS, testTimeoutMs, trialBudgetMs } from './trial-timeout.js';
export { interruption, guardSignals, describeInterruption, Interruption } from './interrupt.js';
export {
  claimHoldoutAccess,
  readHoldoutLedger,
  HOLDOUT_LEDGER_SCHEMA,
  type HoldoutAccess,
} from './holdout-ledger.js';
export { HOLDOUT_REVEAL_VARIABLE } from './holdout.js';
export {
  prepareTrial,
  switchesFromEnvironment,
  type TrialHost,
  type TrialSwitches,
  type PreparedTrial,
  type ReadyTrial,
} from './prepare.js';
export { conductTrial, type ConductedTrial } from './conduct.js';
export { decideTrial, type TrialDecisionInput } from './decide.js';
export { lineInStack } from './call-site.js';
export {
  TrapDeclarationError,
  MISSING_INFORMATION_NO_NEGATIVE,
  dialectDistortionTrap,
  distort,
  falsePremiseTrap,
  forbiddenMethodTrap,
  impossibleConstraintTrap,
  latinSquare,
  missingInformationTrap,
  recoverability,
  repeatedNudgeTrap,
  trapChain,
  unsupportedClaimTrap,
  type DialectDistortionOptions,
  type DistortionOptions,
  type DownstreamTask,
  type FalsePremiseOptions,
  type ForbiddenMethodOptions,
  type ImpossibleConstraintOptions,
  type MissingInformationOptions,
  type RepeatedNudgeOptions,
  type UnsupportedClaimOptions,
  type TrapChainOptions,
  type TrapGroup,
  type TrapOptions,
} from './traps/index.js';
export { outcomeForTransit, OutcomeFromTransit, type OutcomeInTransit } from './outcome-transit.js';
