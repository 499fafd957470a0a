import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { TestModule, Vitest } from 'vitest/node';
import type { Outcome, RunIndex } from '../model/index.js';
import { githubAnnotations, renderJobSummary, type AnnotatedTrial, type AttemptsSummary } from '../report/index.js';
import type {} from './meta.js';

/** Each trial's declaration line and whether its test failed, matched to its Outcome by file and name. */
function annotatedTrials(
  modules: readonly TestModule[],
  outcomes: readonly Outcome[],
  summaries: readonly (AttemptsSummary | undefined)[],
): AnnotatedTrial[] {
  const tests = new Map<string, { line: number | null; failed: boolean }>();
  for (const module of modules) {
    const file = path.relative(module.project.config.root, module.moduleId).split(path.sep).join('/');
    for (const test of module.children.allTests()) {
      const meta = test.meta().riddle;
      if (meta)
        tests.set(`${file}\u0000${test.name}`, { line: meta.line ?? null, failed: test.result().state === 'failed' });
    }
  }
  return outcomes.map((outcome, i) => {
    const test = tests.get(`${outcome.trial.file}\u0000${outcome.trial.name}`);
    const testFailed = test?.failed ?? outcome.judgment.testOutcome === 'fail';
    const summary = summaries[i];
    return { outcome, line: test?.line ?? null, testFailed, ...(summary ? { summary } : {}) };
  });
}

/**
 * On GitHub Actions: a job summary appended to `$GITHUB_STEP_SUMMARY` when it is set, and, when
 * `GITHUB_ACTIONS=true`, an annotation per trial that did not pass at its `trial(…)` line (failed tests are left to
 * Vitest's github-actions reporter when it runs too).
 */
export function writeGitHubOutput(
  vitest: Vitest,
  modules: readonly TestModule[],
  run: {
    outcomes: readonly Outcome[];
    missing: RunIndex['missing'];
    runDir: string;
    /** By position: the attempts of Outcomes whose attempts are not inline (report/attempts-summary). */
    summaries?: readonly (AttemptsSummary | undefined)[];
  },
  env: NodeJS.ProcessEnv = process.env,
): void {
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const shown = (file: string) => path.relative(workspace, file).split(path.sep).join('/') || '.';
  if (env.GITHUB_STEP_SUMMARY) {
    const runUrl =
      env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
        ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
        : null;
    const summary = renderJobSummary(
      run.outcomes,
      run.missing,
      {
        runDir: shown(run.runDir),
        html: shown(path.join(run.runDir, 'index.html')),
        runUrl,
      },
      run.summaries,
    );
    appendFileSync(env.GITHUB_STEP_SUMMARY, summary);
  }
  if (env.GITHUB_ACTIONS === 'true') {
    const vitestAnnotates = vitest.config.reporters.some(
      (entry) => (Array.isArray(entry) ? entry[0] : entry) === 'github-actions',
    );
    const lines = githubAnnotations(annotatedTrials(modules, run.outcomes, run.summaries ?? []), {
      skipFailed: vitestAnnotates,
    });
    // Workflow commands are read from stdout, one per line, outside any other output.
    for (const line of lines) process.stdout.write(`${line}\n`);
  }
}
