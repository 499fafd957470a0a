import path from 'node:path';
import { afterAll, expect, inject, TestRunner, test, type TestContext } from 'vitest';
import { systemClock, type Outcome } from '../model/index.js';
import { adoptHarnessVersions, adoptRunFacts, forgetRunFacts, runFacts } from '../observe/index.js';
import { formatVerdictFailure, neutraliseText, summaryLine, type SampleReason } from '../report/index.js';
import {
  conductTrial,
  declarationWarnings,
  resolveTrial,
  switchesFromEnvironment,
  TrialDeclarationError,
  testTimeoutMs,
  type DeclarationSite,
  type ProjectSettings,
  type SuiteDeclaration,
  type TrialDeclaration,
  outcomeForTransit,
  writePendingRegistrations,
} from '../run/index.js';
import { carriedOutcome } from './meta.js';
import type {} from './plugin.js';
import { CUT_SHORT_WAIT_MS, deliverCutShort, guardTrial } from './cut-short.js';
import { progressReport } from './progress-writer.js';
import { runLedger } from './run-ledger.js';
import { captureDeclaration } from './declared-stack.js';
import { lazyExpect } from './lazy-expect.js';
import { softAssertionsOf } from './soft-assertions.js';
import { annotateUnlocated } from './unlocated-annotation.js';
import { annotatesTrial } from './annotated-trials.js';
import { attemptStreamFor, providedReportDir, samplesForMessage } from './attempt-stream-host.js';

/** Thrown by a trial's test when its verdict fails it: the message explains the verdict. */
export class TrialVerdictError extends Error {
  /**
   * `declaredAt`: the stack frames of the trial's declaration (see declarationFrames), so the failure points at the
   * user's `trial(…)` line.
   */
  constructor(
    readonly outcome: Outcome,
    declaredAt: string | null = null,
    /** Why attempts did not pass, when the Outcome's attempts are in its file rather than in it. */
    samples?: readonly SampleReason[],
  ) {
    super(formatVerdictFailure(outcome, samples));
    this.name = 'TrialVerdictError';
    if (declaredAt) this.stack = `${this.name}: ${this.message}\n${declaredAt}`;
  }

  /** What Vitest serialises and prints: the message and stack, not the whole Outcome (it is in the test's meta). */
  toJSON(): { name: string; message: string; stack: string | undefined } {
    return { name: this.name, message: this.message, stack: this.stack };
  }
}

/**
 * Per test file being collected: its trials' names (unique per file) and the lines its `trial(…)` calls' positions
 * mapped to (see captureDeclaration).
 */
const collectedFiles = new Map<string, { names: Set<string>; lines: Map<string, number | null> }>();
/** The trials declared in each suite being collected (by Vitest's collector), for its one cut-short afterAll. */
const trialsBySuite = new WeakMap<object, string[]>();

/** Project-wide settings from the riddle plugin, when it is installed. */
function projectSettings(): ProjectSettings {
  return { passOn: inject('riddle')?.passOn ?? null, sealSalt: process.env.RIDDLE_SEAL_SALT ?? '' };
}

/**
 * The project folder trials run in: the Vitest project's root, as the riddle reporter provides it to each project's
 * workers; the working folder without the reporter. Vitest does not move its workers into the root: with
 * `vitest --root packages/a` run from elsewhere, the working folder took the project's registrations and ledgers, was
 * walked for outside writes, and named the trials' files.
 */
function projectRoot(): string {
  const root = inject('riddleRoot');
  return typeof root === 'string' && path.isAbsolute(root) ? root : process.cwd();
}

/**
 * A test file's path from the project root, kept by root and file: each trial asks for its file's twice, and a file
 * holds many trials (path.relative, called twice a trial, was among the functions V8 optimised over a file's trials).
 */
function fromProjectRoot(file: string): string {
  const root = projectRoot();
  const key = `${root}\0${file}`;
  let relative = pathsFromRoot.get(key);
  if (relative === undefined) pathsFromRoot.set(key, (relative = path.relative(root, file)));
  return relative;
}
const pathsFromRoot = new Map<string, string>();

function currentFile(): string {
  const testPath = expect.getState().testPath ?? '';
  return testPath ? fromProjectRoot(testPath) : '(unknown file)';
}

function siteAtRun(context: TestContext, name: string, line: number | null): DeclarationSite {
  const suites: string[] = [];
  for (
    let suite = context.task.suite;
    suite && suite.type === 'suite' && suite !== context.task.file;
    suite = suite.suite
  ) {
    suites.unshift(suite.name);
  }
  return {
    name,
    file: fromProjectRoot(context.task.file.filepath).split(path.sep).join('/'),
    path: suites,
    line,
  };
}

function register(name: string, declaration: TrialDeclaration | SuiteDeclaration, more = 0): void {
  const file = currentFile();
  const known = collectedFiles.get(file);
  const collected = known ?? { names: new Set<string>(), lines: new Map<string, number | null>() };
  // The test file's frame on the stack is the `trial(…)` call: its line goes into every message about it.
  const declaredAt = captureDeclaration(expect.getState().testPath ?? '', collected.lines);
  const { line } = declaredAt;
  const collectionSite: DeclarationSite = { name, file, path: [], line };
  if (typeof name !== 'string' || name.trim() === '')
    throw new TrialDeclarationError(collectionSite, 'name', 'give the trial a non-empty name');
  // test(name, fn, timeout) takes a third; a trial would silently ignore it.
  if (more > 0)
    throw new TrialDeclarationError(
      collectionSite,
      'trial(…)',
      'takes a name and a declaration, nothing more: a time limit goes in the declaration (budget.attemptMs, or the Case’s stop.timeoutMs)',
    );
  // Once the file's tests run (its task has a result), Vitest has collected them: a test declared in a hook such as
  // beforeAll would be dropped without a word.
  const collector = TestRunner.getCurrentSuite();
  if ((collector.suite?.file ?? collector.file)?.result !== undefined)
    throw new TrialDeclarationError(
      collectionSite,
      'where it is declared',
      'trial() was called while the file’s tests ran (in a hook such as beforeAll, in a test or in a callback), after Vitest had collected them, so it would never run; declare trials at the top level of the file or inside describe()',
    );
  const { names } = collected;
  if (!known) {
    collectedFiles.set(file, collected);
    // Forget the names, lines and run facts once the file has run, so a watch-mode rerun in a shared (non-isolated)
    // worker starts afresh; and write the file's trials' registrations, which wait to be written together.
    afterAll(async () => {
      collectedFiles.delete(file);
      forgetRunFacts();
      await writePendingRegistrations();
    });
    // Git state, lockfile and machine: as the riddle reporter captured them once for the run, else captured once for
    // the file's trials, while the rest is collected.
    const root = projectRoot();
    if (!adoptRunFacts(root, inject('riddleRunFacts'))) void runFacts(root);
    adoptHarnessVersions(root, inject('riddleHarness'));
  }
  if (names.has(name)) {
    collectedFiles.delete(file);
    throw new TrialDeclarationError(
      collectionSite,
      'name',
      'another trial in this file has the same name; names must be unique per file',
    );
  }
  names.add(name);
  // Resolve now so a malformed declaration fails at collection, naming the trial and the field.
  const declared = resolveTrial(collectionSite, declaration, projectSettings());
  for (const warning of declarationWarnings(declared.suite, declared.rubric))
    console.warn(neutraliseText(`riddle: trial "${name}": ${warning}`));
  const { budgetMs } = declared;

  const key = `${file}::${name}`;
  let suiteTrials = trialsBySuite.get(collector);
  if (!suiteTrials) {
    suiteTrials = [];
    trialsBySuite.set(collector, suiteTrials);
    afterAll(deliverCutShort(suiteTrials), CUT_SHORT_WAIT_MS);
  }
  suiteTrials.push(key);
  const run = async (context: TestContext, signal: AbortSignal) => {
    const conducted = await conductTrial(declaration, {
      site: siteAtRun(context, name, line),
      root: projectRoot(),
      settings: projectSettings(),
      switches: switchesFromEnvironment(process.env),
      clock: systemClock,
      expect: lazyExpect(context),
      softAssertions: softAssertionsOf(context.task),
      signal,
      runBudget: runLedger(),
      attempts: attemptStreamFor(name),
      reportDir: providedReportDir(),
      ...progressReport(context.task.id),
    });
    if (conducted.kind === 'skipped') return context.skip(conducted.reason);
    const { outcome, test, prices } = conducted;
    // The Outcome goes into the meta once the annotation is recorded: recording one sends the test's pending updates,
    // meta included, so with the Outcome in it already it crossed to the main process twice (then with the end).
    // Set even when the annotation fails (the test ended meanwhile): a cut-short trial delivers it from the meta.
    try {
      if (annotatesTrial(test.outcome === 'fail')) await annotateUnlocated(context, summaryLine(outcome), 'riddle');
    } finally {
      context.task.meta.riddle = { trial: name, line, outcome: carriedOutcome(outcomeForTransit(outcome, prices)) };
    }
    if (test.outcome === 'skip') context.skip(test.reason);
    if (test.outcome === 'fail') throw new TrialVerdictError(outcome, declaredAt.frames(), samplesForMessage(outcome));
  };
  // Vitest prints the test's name as it is: control characters in it are shown, not obeyed.
  test(
    neutraliseText(name),
    { timeout: testTimeoutMs(budgetMs), meta: { riddle: { trial: name, line } } },
    guardTrial(key, run),
  );
}

export interface Trial {
  /**
   * Declare a trial: the Case, its matched controls, the subject, rubric, evaluators and repetition policy. The
   * rubric's criterion names (`C`) are the only names `expect`, `forbid` and the keys of `checks` accept.
   */
  <const C extends string>(name: string, declaration: TrialDeclaration<C>): void;
  /** Declare a data-driven trial: many Cases (rows), paired by group, in one Trial Suite. */
  suite<const C extends string>(name: string, declaration: SuiteDeclaration<C>): void;
}

export const trial: Trial = Object.assign(
  (name: string, declaration: TrialDeclaration, ...more: unknown[]) => register(name, declaration, more.length),
  {
    suite: (name: string, declaration: SuiteDeclaration, ...more: unknown[]) =>
      register(name, declaration, more.length),
  },
);

/** The same as `trial`, under a name IDEs' static test discovery recognises before the file first runs. */
export const testTrial: Trial = trial;
