import path from 'node:path';
import { DefaultReporter, type TestModule, type TestRunEndReason, type Vitest } from 'vitest/node';
import { Outcome, type RunIndex } from '../model/index.js';
import { newRunId, renderTerminal, writeRunArtifacts } from '../report/index.js';
import type {} from './meta.js';
import { harnessVersions } from '../observe/index.js';

type DefaultReporterOptions = NonNullable<ConstructorParameters<typeof DefaultReporter>[0]>;

export interface RiddleReporterOptions extends DefaultReporterOptions {
  /** Folder for Outcome artifacts (default `riddle-report`, or `--outputFile.riddle`), relative to the root. */
  outputDir?: string;
}

/** What the reporter gathered from the final task tree. */
export interface CollectedOutcomes {
  outcomes: Outcome[];
  missing: RunIndex['missing'];
}

/**
 * Read every trial's Outcome from final test state (meta), so a merged sharded run gives the same artifacts as
 * one run. A trial that ran but left no valid Outcome is listed as missing with the reason.
 */
export function collectOutcomes(modules: readonly TestModule[]): CollectedOutcomes {
  const outcomes: Outcome[] = [];
  const missing: RunIndex['missing'] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const meta = test.meta().riddle;
      if (!meta) continue;
      const file = path.relative(module.project.config.root, module.moduleId).split(path.sep).join('/');
      const state = test.result().state;
      if (meta.outcome === undefined) {
        if (state === 'pending' || state === 'skipped') continue;
        const error =
          test.result().errors?.[0]?.message?.split('\n')[0] ?? 'the trial ended before its Outcome was built';
        missing.push({ name: test.name, file, reason: `${state}: ${error}` });
        continue;
      }
      const parsed = Outcome.safeParse(meta.outcome);
      if (parsed.success) outcomes.push(parsed.data);
      else {
        const issue = parsed.error.issues[0];
        missing.push({
          name: test.name,
          file,
          reason: `invalid Outcome at ${issue?.path.join('.') ?? '(root)'}: ${issue?.message ?? 'unknown'}`,
        });
      }
    }
  }
  outcomes.sort((a, b) => (a.trial.id < b.trial.id ? -1 : a.trial.id > b.trial.id ? 1 : 0));
  return { outcomes, missing };
}

/** Vitest's default output plus the riddle summary, and the run's Outcome artifacts on disk. */
export class RiddleReporter extends DefaultReporter {
  private readonly outputDirOption: string | undefined;
  private startedAt = new Date();

  constructor(options: RiddleReporterOptions = {}) {
    super(options);
    this.outputDirOption = options.outputDir;
  }

  override onInit(ctx: Vitest): void {
    super.onInit(ctx);
    this.startedAt = new Date();
  }

  private outputDir(): string {
    const configured = this.ctx.config.outputFile;
    const fromCli = typeof configured === 'object' && configured !== null ? configured.riddle : undefined;
    return path.resolve(this.ctx.config.root, this.outputDirOption ?? fromCli ?? 'riddle-report');
  }

  override onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: Parameters<DefaultReporter['onTestRunEnd']>[1],
    reason: TestRunEndReason,
  ): void {
    const { outcomes, missing } = collectOutcomes(testModules);
    if (outcomes.length > 0 || missing.length > 0) {
      this.log(renderTerminal(outcomes, missing));
      try {
        const written = writeRunArtifacts({
          outputDir: this.outputDir(),
          runId: newRunId(this.startedAt),
          startedAt: this.startedAt.toISOString(),
          finishedAt: new Date().toISOString(),
          versions: { ...harnessVersions(this.ctx.config.root), node: process.version },
          outcomes,
          missing,
        });
        const shown = (file: string) => path.relative(process.cwd(), file) || file;
        this.log(`  riddle report: ${shown(written.index)} · ${shown(path.join(written.runDir, 'index.html'))}\n`);
      } catch (error) {
        this.error(`riddle: could not write the report: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      }
    }
    super.onTestRunEnd(testModules, unhandledErrors, reason);
  }
}
