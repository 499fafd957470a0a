import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ClaimCheckOptions, ExpectFunction } from '../evaluate/index.js';
import { migrate, type Outcome, type Rubric } from '../model/index.js';
import { newRunId, renderTerminal, writeRunArtifacts } from '../report/index.js';
import { rejudgeOutcome, type RejudgeOptions } from '../run/index.js';
import { asEvaluator, importDefault } from './load-module.js';
import { loadRun, readJsonFile } from './read-records.js';

const require = createRequire(import.meta.url);

const noExpect: ExpectFunction = () => {
  throw new Error('this check calls expect, but the rejudge module exports none: add `expect` to its default export');
};

/**
 * `riddle rejudge <run folder | index.json | outcome.json> --evaluators <module.js> [--rubric <rubric.json>] [--out <dir>]`
 *
 * Re-evaluates the retained Observations of every Outcome in a run with other evaluators (and optionally another
 * Rubric) without running the subject again, and writes the new Outcomes as a new run under `--out` (default
 * `riddle-report`). The old Outcomes are never written to. The module (compiled JavaScript, or TypeScript under a
 * loader such as tsx) default-exports `{ evaluators, rubric?, expect?, claims? }`: the evaluator definitions, an
 * optional replacement Rubric (`--rubric` wins), an `expect` for checks that assert, and claim options (declared
 * extractors). Exit code 0 when every new Outcome's test outcome passes or skips, 1 otherwise.
 */
export async function rejudgeCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      evaluators: { type: 'string' },
      rubric: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const target = positionals[0];
  if (!target) throw new Error('riddle rejudge needs a run folder, index.json or outcome.json');
  if (!values.evaluators)
    throw new Error('riddle rejudge needs --evaluators <module.js> (default-exporting { evaluators, rubric? })');
  const module = await importDefault(values.evaluators, 'evaluators');
  if (!Array.isArray(module.evaluators) || module.evaluators.length === 0) {
    throw new Error(`${values.evaluators}: the default export needs evaluators: [ … ] (at least one)`);
  }
  const evaluators = module.evaluators.map((e: unknown, i: number) =>
    asEvaluator(e, `${values.evaluators}: evaluators[${i}]`),
  );
  const rubric: Rubric | undefined = values.rubric
    ? migrate('rubric', readJsonFile(values.rubric), values.rubric)
    : module.rubric === undefined
      ? undefined
      : migrate('rubric', module.rubric, `${values.evaluators}: default export .rubric`);
  const options: RejudgeOptions = {
    evaluators,
    expect: typeof module.expect === 'function' ? (module.expect as ExpectFunction) : noExpect,
    ...(rubric ? { rubric } : {}),
    ...(typeof module.claims === 'object' && module.claims !== null
      ? { claims: module.claims as ClaimCheckOptions }
      : {}),
  };

  const run = loadRun(target);
  const startedAt = new Date();
  const outcomes: Outcome[] = [];
  for (const outcome of run.outcomes) outcomes.push(await rejudgeOutcome(outcome, options));
  const written = writeRunArtifacts({
    outputDir: path.resolve(values.out ?? 'riddle-report'),
    runId: newRunId(startedAt),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    versions: {
      riddle: (require('../../package.json') as { version: string }).version,
      vitest: 'none (rejudged by the riddle CLI)',
      node: process.version,
    },
    outcomes,
    missing: run.index?.missing ?? [],
  });
  const lines = run.outcomes.map((old, i) => {
    const next = outcomes[i];
    return `  ${old.trial.name}: ${old.judgment.verdict} → ${next?.judgment.verdict ?? '?'}  (${old.id.slice(0, 19)} → ${next?.id.slice(0, 19) ?? '?'})`;
  });
  process.stdout.write(
    `${renderTerminal(outcomes, [])}\n\nre-judged without running the subject:\n${lines.join('\n')}\n  wrote ${written.runDir}\n`,
  );
  return outcomes.every((o) => o.judgment.testOutcome !== 'fail') ? 0 : 1;
}
