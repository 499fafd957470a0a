export { summaryLine, formatVerdictFailure, armRate, armTally } from './verdict-text.js';
export { formatProgress } from './progress-text.js';
export { policyChangesText } from './policy-changes-text.js';
export { armReasonText, attemptReasonText, suiteRuleReasonText, trialReasonText, unsettledText } from './reasons.js';
export { renderJobSummary, githubAnnotations, type JobSummaryLinks, type AnnotatedTrial } from './github.js';
export { sampleReasons, formatSampleReason, SampleReasonTally, type SampleReason } from './sample-reasons.js';
export { renderTerminal, attemptBar, pressureText } from './terminal.js';
export { renderMarkdown } from './markdown.js';
export {
  writeRunArtifacts,
  writeRunArtifactsAsync,
  writeFileAtomic,
  artifactJson,
  newRunId,
  incompleteReason,
  type RunArtifacts,
} from './artifacts.js';
export { renderHtml } from './html.js';
export {
  DETAILED_ATTEMPTS,
  AttemptsSummarizer,
  summarizeAttempts,
  summarizeAttemptsFile,
  type AttemptsSummary,
  type ContradictedClaim,
  type AttemptSandbox,
} from './attempts-summary.js';
export { costText, usdText, spendingLines, costSectionHtml, costChangeText } from './cost-text.js';
export { runBudgetText } from './run-budget-text.js';
export {
  attemptsFileName,
  forEachJsonLine,
  readOutcomeFile,
  writeOutcomeFiles,
  writeOutcomeFilesAsync,
} from './outcome-files.js';
export { renderSuiteTerminal, renderSuiteMarkdown } from './suite-table.js';
export { neutraliseText, escapeHtml, markdownText, mapStrings } from './safe-text.js';
export { capabilitySentence, capabilityScopeText } from './capability-text.js';
export {
  findingsFile,
  findingsFor,
  renderFindingsMarkdown,
  renderFindingsText,
  compositionLines,
} from './findings-file.js';
