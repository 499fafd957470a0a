import path from 'node:path';
import type { RunnerTestFile, SerializedError, UserConsoleLog } from 'vitest';
import {
  DefaultReporter,
  DotReporter,
  GithubActionsReporter,
  HangingProcessReporter,
  JsonReporter,
  JUnitReporter,
  TapReporter,
  VerboseReporter,
  type ReportedHookContext,
  type Reporter,
  type TestCase,
  type TestModule,
  type TestRunEndReason,
  type TestSpecification,
  type TestSuite,
  type Vitest,
} from 'vitest/node';
import { OUTCOME_SCHEMA, type BudgetRecord, type RunIndex } from '../model/index.js';
import { incompleteReason, newRunId, runBudgetText, writeRunArtifactsAsync } from '../report/index.js';
import { renderShownTerminal } from '../report/terminal.js';
import { shownOutcomes } from '../report/shown-outcomes.js';
// Single modules rather than the layers' indexes: the main process loads only what the reporter uses.
import { readRunLedger } from '../run/run-budget.js';
import type { OutcomeInTransit } from '../run/outcome-transit.js';
import { isUnreadableOutcome, outcomeInTransitOf } from './meta.js';
import type {} from './plugin.js';
import { InterruptHandover } from './interrupt-host.js';
import type { AnnotatedTrials } from './annotated-trials.js';
import { RunBudgetHost } from './run-budget-host.js';
import { captureRunFactsOf, harnessVersions } from '../observe/environment.js';
import { ProgressMonitor, type ProgressOptions } from './progress.js';
import { writeGitHubOutput } from './github-output.js';
import {
  fileUnfiledAttempts,
  readStreamedAttempts,
  removeStreamingDir,
  streamingDir,
  UNFILED_DIR,
  unfiledAttempts,
} from './streamed-attempts.js';
import type {} from './attempt-stream-host.js';

type DefaultReporterOptions = NonNullable<ConstructorParameters<typeof DefaultReporter>[0]>;

export interface RiddleReporterOptions extends DefaultReporterOptions {
  /** Folder for Outcome artifacts (default `riddle-report`, or `--outputFile.riddle`), relative to the root. */
  outputDir?: string;
  /** Live progress of running trials: `false` turns it off (default on, every 2 s on a terminal, 15 s in CI). */
  progress?: false | ProgressOptions;
}

/** What the reporter gathered from the final task tree. */
export interface CollectedOutcomes {
  /** As they travelled from the workers: readStreamedAttempts puts each back together. */
  outcomes: OutcomeInTransit[];
  missing: RunIndex['missing'];
}

/**
 * An Outcome in transit of the version this riddle writes (from this run's workers, or a merged blob of the same
 * version).
 */
function isCurrentOutcome(value: unknown): value is OutcomeInTransit {
  if (typeof value !== 'object' || value === null || !('outcome' in value) || !('leftOut' in value)) return false;
  const { outcome } = value;
  return typeof outcome === 'object' && outcome !== null && (outcome as { schema?: unknown }).schema === OUTCOME_SCHEMA;
}

/**
 * Read every trial's Outcome from final test state (meta), so a merged sharded run gives the same artifacts as
 * one run. Every declared trial that was to run but left no valid Outcome is listed as missing with the reason:
 * it failed before its Outcome was built, its worker died (killed, out of memory), or the run was interrupted.
 * Trials cut short after their test had ended bring their Outcome through their suite's meta.
 */
export function collectOutcomes(
  modules: readonly TestModule[],
  run: { interrupted: boolean } = { interrupted: false },
): CollectedOutcomes {
  const outcomes: OutcomeInTransit[] = [];
  const missing: RunIndex['missing'] = [];
  for (const module of modules) {
    const file = path.relative(module.project.config.root, module.moduleId).split(path.sep).join('/');
    // A file that failed to load (it threw at import, a syntax error) has no tests: Vitest keeps none of the trials it
    // declared before failing, so they cannot be named. The file stands for them, and the run is incomplete.
    const loadError = module.children.size === 0 ? module.errors()[0] : undefined;
    if (loadError !== undefined) {
      const why = loadError.message?.split('\n')[0] || 'an error';
      missing.push({
        name: `(the trials of ${file})`,
        file,
        reason: `the file failed to load, so none of the trials it declares ran: ${why}`,
      });
      continue;
    }
    const cutShort = new Map<string, unknown>();
    for (const suite of [module, ...module.children.allSuites()]) {
      for (const carried of suite.meta().riddleCutShort ?? []) {
        const transit = outcomeInTransitOf(carried);
        if (isCurrentOutcome(transit)) cutShort.set(transit.outcome.trial.name, transit);
      }
    }
    for (const test of module.children.allTests()) {
      const meta = test.meta().riddle;
      if (!meta) continue;
      const result = test.result();
      const stored = meta.outcome === undefined ? cutShort.get(test.name) : outcomeInTransitOf(meta.outcome);
      if (stored === undefined) {
        const reason = missingReason(test, result, run.interrupted);
        if (reason !== null) missing.push({ name: test.name, file, reason });
        continue;
      }
      // Built and typed by riddle in the worker: its version is checked, not the whole record parsed again (that
      // took seconds for a trial of many attempts).
      if (isCurrentOutcome(stored)) outcomes.push(stored);
      else if (isUnreadableOutcome(stored)) missing.push({ name: test.name, file, reason: stored.unreadable });
      else missing.push({ name: test.name, file, reason: `not a ${OUTCOME_SCHEMA} Outcome (another riddle version?)` });
    }
  }
  outcomes.sort((a, b) =>
    a.outcome.trial.id < b.outcome.trial.id ? -1 : a.outcome.trial.id > b.outcome.trial.id ? 1 : 0,
  );
  return { outcomes, missing };
}

/**
 * Why a declared trial has no Outcome, or null when it was never meant to give one (filtered out, or skipped on
 * purpose, e.g. a holdout not asked for).
 */
function missingReason(test: TestCase, result: ReturnType<TestCase['result']>, interrupted: boolean): string | null {
  if (result.state === 'pending') {
    if (test.options.mode !== 'run' && test.options.mode !== 'only') return null;
    return interrupted
      ? 'not finished: the run was interrupted'
      : 'not finished: the worker running it exited (killed, out of memory, or crashed)';
  }
  if (result.state === 'skipped') {
    const note = result.note ?? '';
    if (!interrupted || note.startsWith('holdout')) return null;
    return `not run: the run was interrupted${note ? ` (${note})` : ''}`;
  }
  const error = result.errors?.[0]?.message?.split('\n')[0] ?? 'the trial ended before its Outcome was built';
  return `${result.state}: ${error}`;
}

/** Built-in reporters that print Vitest's own run output (header, file lines, totals). */
const VITEST_OUTPUT_REPORTERS = new Set([
  'default',
  'verbose',
  'dot',
  'tree',
  'basic',
  'minimal',
  'agent',
  'tap',
  'tap-flat',
]);

/**
 * Whether another configured reporter already prints Vitest's run output, so riddle adds only its own part:
 * `--reporter=default --reporter=riddle` must not print the header, file lines and totals twice.
 */
export function othersPrintVitestOutput(reporters: Vitest['config']['reporters'], self: object): boolean {
  return reporters.some((entry) => {
    const reporter = Array.isArray(entry) ? entry[0] : entry;
    if (typeof reporter === 'string') return VITEST_OUTPUT_REPORTERS.has(reporter);
    return reporter !== self && reporter instanceof DefaultReporter;
  });
}

/**
 * Built-in reporters that show a test's annotations only when it failed (Vitest's default output prints them under a
 * failed test's error), or never (riddle's annotation has no location in the test file, so the github-actions
 * reporter, which shows located ones only, leaves it out). riddle's own reporter is Vitest's default output plus the
 * riddle summary. Verbose, JUnit, TAP, blob (for `--merge-reports`), the UI's html report and any reporter of the
 * user's own show every test's annotations, or may.
 */
const FAILED_ONLY_NAMES: ReadonlySet<string> = new Set([
  'default',
  'minimal',
  'agent',
  'tree',
  'dot',
  'json',
  'hanging-process',
  'github-actions',
  'riddle',
]);

type ReporterEntry = Vitest['config']['reporters'][number];

/** Whether a configured reporter shows passing tests' annotations, or may (one riddle does not know). */
function showsPassingAnnotations(entry: ReporterEntry): boolean {
  const reporter = Array.isArray(entry) ? entry[0] : entry;
  if (typeof reporter === 'string') return !FAILED_ONLY_NAMES.has(reporter);
  // riddle's own, which read the Outcome itself.
  if (reporter instanceof RiddleReporter || reporter instanceof RunBudgetHost) return false;
  // Verbose is a kind of the default output that prints every test's annotations; TAP-flat a kind of TAP.
  if (reporter instanceof VerboseReporter || reporter instanceof JUnitReporter || reporter instanceof TapReporter)
    return true;
  return !(
    reporter instanceof DefaultReporter ||
    reporter instanceof DotReporter ||
    reporter instanceof JsonReporter ||
    reporter instanceof HangingProcessReporter ||
    reporter instanceof GithubActionsReporter
  );
}

/**
 * The trials this run annotates, from its configured reporters and whether Vitest's UI or API server (which show every
 * test's annotations) runs.
 */
export function annotatedTrialsFor(config: Pick<Vitest['config'], 'reporters' | 'ui' | 'api'>): AnnotatedTrials {
  if (config.ui || typeof config.api?.port === 'number') return 'every';
  return config.reporters.some(showsPassingAnnotations) ? 'every' : 'failing';
}

/**
 * Vitest's default output plus the riddle summary, and the run's Outcome artifacts on disk. Alongside another
 * reporter that prints Vitest's output, only the riddle part (progress, summary, report) is added.
 */
/**
 * What cancelled a run no signal interrupted, as the run index and the terminal name it. Vitest cancels on its own
 * when `bail` tests have failed; its cancel listeners are cleared as each run starts, so the reason is read from the
 * run's end instead: as many failed tests as `bail` allows.
 */
export function cancelledBy(bail: number | undefined, failed: number): string {
  return bail && failed >= bail
    ? `--bail=${bail} (${failed} test${failed === 1 ? '' : 's'} failed)`
    : 'a cancelled run';
}

const failedTests = (modules: ReadonlyArray<TestModule>) => {
  let failed = 0;
  for (const module of modules) failed += [...module.children.allTests('failed')].length;
  return failed;
};

export class RiddleReporter implements Reporter {
  private readonly outputDirOption: string | undefined;
  private readonly defaultOutput: DefaultReporter;
  /** The default reporter, when riddle prints Vitest's output itself; null beside another reporter that does. */
  private vitestOutput: DefaultReporter | null = null;
  private progress: ProgressMonitor | null = null;
  private readonly progressOption: RiddleReporterOptions['progress'];
  private ctx!: Vitest;
  private interrupts: InterruptHandover | null = null;
  private startedAt = new Date();
  /** This run's id, chosen when it starts: its trials write their attempts under it while they run. */
  private runId: string | null = null;

  constructor(options: RiddleReporterOptions = {}) {
    const { outputDir, progress, ...defaultOptions } = options;
    this.defaultOutput = new DefaultReporter(defaultOptions);
    this.outputDirOption = outputDir;
    this.progressOption = progress;
  }

  onInit(ctx: Vitest): void {
    this.ctx = ctx;
    this.interrupts = new InterruptHandover(ctx, (line) => ctx.logger.log(line));
    this.interrupts.install();
    this.startedAt = new Date();
    this.vitestOutput = othersPrintVitestOutput(ctx.config.reporters, this) ? null : this.defaultOutput;
    this.vitestOutput?.onInit(ctx);
    if (this.progressOption !== false) {
      const tty = Boolean(process.stdout.isTTY) && !process.env.CI;
      const fromEnv = Number(process.env.RIDDLE_PROGRESS_MS);
      const intervalMs = this.progressOption?.intervalMs ?? (fromEnv > 0 ? fromEnv : tty ? 2000 : 15_000);
      this.progress = new ProgressMonitor((line) => ctx.logger.log(line), intervalMs);
    }
  }

  private outputDir(): string {
    const configured = this.ctx.config.outputFile;
    const fromCli = typeof configured === 'object' && configured !== null ? configured.riddle : undefined;
    return path.resolve(this.ctx.config.root, this.outputDirOption ?? fromCli ?? 'riddle-report');
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    this.runId = newRunId(this.startedAt);
    // Trials write each attempt here as it finishes (vitest/attempt-stream-host), not into one Outcome at the end.
    this.ctx.provide('riddleAttempts', { dir: streamingDir(this.outputDir(), this.runId), reports: this.outputDir() });
    this.ctx.provide('riddleAnnotatedTrials', annotatedTrialsFor(this.ctx.config));
    // The git state, lockfile and machine of each project this run tests, captured once for the run here (git's
    // status once per repository) and adopted by its workers (vitest/trial): every test file's worker ran git twice and
    // hashed the lockfile otherwise. A watch-mode rerun captures them afresh.
    const facts = await captureRunFactsOf(specifications.map((specification) => specification.project.config.root));
    for (const project of this.ctx.projects) {
      // Each project's trials run in its root, wherever Vitest was started (vitest/trial projectRoot).
      project.provide('riddleRoot', project.config.root);
      project.provide('riddleRunFacts', facts.get(project.config.root) ?? null);
      // riddle's and the project's Vitest version, read here once rather than by every worker (a module resolution).
      if (facts.has(project.config.root)) project.provide('riddleHarness', harnessVersions(project.config.root));
    }
    this.progress?.start(this.ctx);
    this.vitestOutput?.onTestRunStart(specifications);
  }

  onTestCaseReady(test: TestCase): void {
    if (test.meta().riddle) this.progress?.testStarted(test.id);
    this.vitestOutput?.onTestCaseReady(test);
  }

  onTestCaseResult(test: TestCase): void {
    this.progress?.testEnded(test.id);
    this.vitestOutput?.onTestCaseResult(test);
  }

  /**
   * Vitest awaits the promise (`vitest.report` in its test run's `end`): the artifacts are written asynchronously, so
   * the main loop keeps serving Vitest (its workers' stop and their timeout timers) while a large run is written.
   */
  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    this.progress?.stop();
    const interruptedBy =
      this.interrupts?.interruptedBy ??
      (reason === 'interrupted' ? cancelledBy(this.ctx.config.bail, failedTests(testModules)) : null);
    const collected = collectOutcomes(testModules, { interrupted: interruptedBy !== null });
    const runId = this.runId ?? newRunId(this.startedAt);
    // Read before the first await: the run budget's host removes its ledger once every reporter's end has begun.
    const runBudget = this.runBudget();
    // Attempts written while the trials ran are summarised from their files for the renderers, then moved into place.
    const { outcomes, summaries, attemptFiles, missing: unreadable } = await readStreamedAttempts(collected.outcomes);
    // Attempts files no Outcome names (a worker that died, a trial that threw): kept in the run folder, and said where.
    const streaming = streamingDir(this.outputDir(), runId);
    const { unfiled, missing } = unfiledAttempts(streaming, attemptFiles, [...collected.missing, ...unreadable]);
    if (outcomes.length > 0 || missing.length > 0) {
      // Neutralised once for the terminal and the HTML report.
      const shown = shownOutcomes(outcomes, summaries);
      this.ctx.logger.log(renderShownTerminal(shown, missing));
      if (runBudget) this.ctx.logger.log(`  riddle ${runBudgetText(runBudget)}`);
      try {
        const written = await writeRunArtifactsAsync({
          outputDir: this.outputDir(),
          runId,
          startedAt: this.startedAt.toISOString(),
          finishedAt: new Date().toISOString(),
          versions: { ...harnessVersions(this.ctx.config.root), node: process.version },
          outcomes,
          missing,
          interruptedBy,
          runBudget,
          attemptFiles,
          summaries,
          shown,
        });
        fileUnfiledAttempts(streaming, written.runDir, unfiled);
        removeStreamingDir(streaming);
        const incomplete = incompleteReason({ outcomes, missing, interruptedBy });
        if (incomplete !== null)
          this.ctx.logger.log(`  riddle: ${incomplete}; the report folder's latest run is still the last complete one`);
        const relative = (file: string) => path.relative(process.cwd(), file) || file;
        if (unfiled.length > 0)
          this.ctx.logger.log(
            `  riddle: the finished attempts of ${unfiled.length === 1 ? 'a trial' : `${unfiled.length} trials`} without an Outcome are kept in ${relative(path.join(written.runDir, UNFILED_DIR))}`,
          );
        this.ctx.logger.log(
          `  riddle report: ${relative(written.index)} · ${relative(path.join(written.runDir, 'index.html'))}\n`,
        );
        writeGitHubOutput(this.ctx, testModules, { outcomes, missing, runDir: written.runDir, summaries });
      } catch (error) {
        this.ctx.logger.error(
          `riddle: could not write the report: ${error instanceof Error ? error.message : String(error)}`,
        );
        // The missing trials' reasons above said where their attempts would be kept: they were never moved there.
        if (unfiled.length > 0)
          this.ctx.logger.error(
            `riddle: the finished attempts said above to be kept in ${UNFILED_DIR}/ are still where the trials wrote them, in ${path.relative(process.cwd(), streaming) || streaming}`,
          );
        process.exitCode = 1;
      }
    }
    this.vitestOutput?.onTestRunEnd(testModules, unhandledErrors, reason);
    this.interrupts?.handOver();
  }

  /** The run-wide budget as the run's ledger stands at its end (the riddle plugin keeps it), or null when none. */
  private runBudget(): BudgetRecord | null {
    const share = this.ctx.getProvidedContext().riddle?.runBudget ?? null;
    if (share === null) return null;
    try {
      return readRunLedger(share.ledger, Date.now());
    } catch (error) {
      this.ctx.logger.error(
        `riddle: could not read the run budget's ledger: ${error instanceof Error ? error.message : String(error)}`,
      );
      return null;
    }
  }

  // The rest of Vitest's default output, printed only when no other reporter prints it.
  onTestModuleQueued(module: TestModule): void {
    this.vitestOutput?.onTestModuleQueued(module);
  }
  onTestModuleCollected(module: TestModule): void {
    this.vitestOutput?.onTestModuleCollected(module);
  }
  onTestModuleEnd(module: TestModule): void {
    this.vitestOutput?.onTestModuleEnd(module);
  }
  onTestSuiteResult(suite: TestSuite): void {
    this.vitestOutput?.onTestSuiteResult(suite);
  }
  onHookStart(hook: ReportedHookContext): void {
    this.vitestOutput?.onHookStart(hook);
  }
  onHookEnd(hook: ReportedHookContext): void {
    this.vitestOutput?.onHookEnd(hook);
  }
  onUserConsoleLog(log: UserConsoleLog): void {
    this.vitestOutput?.onUserConsoleLog(log);
  }
  onWatcherStart(files?: RunnerTestFile[], errors?: unknown[]): void {
    this.vitestOutput?.onWatcherStart(files, errors);
  }
  onWatcherRerun(files: string[], trigger?: string): void {
    this.vitestOutput?.onWatcherRerun(files, trigger);
  }
  onTestRemoved(trigger?: string): void {
    this.vitestOutput?.onTestRemoved(trigger);
  }
  onServerRestart(reason?: string): void {
    this.vitestOutput?.onServerRestart(reason);
  }
}
