/// <reference types="vitest/config" />
import type { Plugin } from 'vite';
import type { Verdict } from '../model/index.js';
// The run-budget module alone: the config is loaded in the main process, which never runs a trial.
import { resolveRunBudget, type RunBudgetDeclaration, type RunBudgetShare } from '../run/run-budget.js';
import { RunBudgetHost } from './run-budget-host.js';
import { checkPluginOptions } from './plugin-options.js';
import type { ProgressOptions } from './progress.js';

export interface RiddlePluginOptions {
  /** Folder for Outcome artifacts, relative to the root (default `riddle-report`). */
  outputDir?: string;
  /** Project-wide verdicts under which a trial's test passes (a trial's own `passOn` wins). */
  passOn?: Verdict[];
  /** Add the riddle reporter when no reporter was chosen on the command line (default true). */
  reporter?: boolean;
  /** The riddle reporter's live progress of running trials: `false` turns it off (see RiddleReporterOptions). */
  progress?: false | ProgressOptions;
  /**
   * A budget for the whole run, shared by every trial in every worker: once spent, every attempt not yet started is
   * `blocked`. RIDDLE_RUN_BUDGET_USD, RIDDLE_RUN_BUDGET_TOKENS and RIDDLE_RUN_BUDGET_WALL_MS set or override it.
   */
  runBudget?: RunBudgetDeclaration;
}

/** Values the plugin hands to test workers through Vitest's `provide`/`inject`. */
export interface RiddleProvided {
  passOn: Verdict[] | null;
  /** The run's budget and its ledger, set at the start of each run; null when the run declares none. */
  runBudget: RunBudgetShare | null;
}

declare module 'vitest' {
  interface ProvidedContext {
    riddle: RiddleProvided;
  }
}

/**
 * The riddle Vite plugin: project-wide defaults for trials and the riddle reporter in the reporter list (kept
 * once, whatever the command line added).
 */
export function riddle(options: RiddlePluginOptions = {}): Plugin {
  // Checked when the config is loaded, so a mistake stops the run before any worker starts.
  checkPluginOptions(options);
  const runBudget = resolveRunBudget(options.runBudget, process.env);
  // The plugin's reporter options, laid over a named reporter's own.
  const reporterOptions = {
    ...(options.outputDir ? { outputDir: options.outputDir } : {}),
    ...(options.progress !== undefined ? { progress: options.progress } : {}),
  };
  return {
    name: 'riddle',
    config() {
      return { test: { provide: { riddle: { passOn: options.passOn ?? null, runBudget: null } } } };
    },
    async configureVitest({ vitest }) {
      const reporters = vitest.config.reporters;
      // One ledger per run, however many projects use the plugin.
      if (runBudget !== null && !reporters.some((entry) => entry instanceof RunBudgetHost))
        reporters.push(new RunBudgetHost(vitest, runBudget));
      // The reporter as an instance, imported by Node: named ('riddle'), Vitest would load it through Vite's module
      // runner, transforming every module of riddle in the main process (about 120 MB and a second of CPU per run).
      const { RiddleReporter } = await import('./reporter.js');
      if (reporters.some((entry) => entry instanceof RiddleReporter)) return;
      const named = (entry: (typeof reporters)[number], name: string) => Array.isArray(entry) && entry[0] === name;
      const existingAt = reporters.findIndex((entry) => named(entry, 'riddle'));
      if (existingAt >= 0) {
        const existing = reporters[existingAt];
        const given = Array.isArray(existing) && typeof existing[1] === 'object' ? existing[1] : {};
        reporters.splice(existingAt, 1, new RiddleReporter({ ...given, ...reporterOptions }));
        return;
      }
      if (options.reporter === false) return;
      // The riddle reporter is the default reporter plus riddle's summary: it takes the default's place.
      const defaultAt = reporters.findIndex((entry) => named(entry, 'default'));
      const entry = new RiddleReporter(reporterOptions);
      if (defaultAt >= 0) reporters.splice(defaultAt, 1, entry);
      else reporters.push(entry);
    },
  };
}
