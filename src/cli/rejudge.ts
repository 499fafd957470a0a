import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ClaimCheckOptions, EvaluatorDefinition, ExpectFunction } from '../evaluate/index.js';
import { migrate, type Arm, type Outcome, type Rubric } from '../model/index.js';
import { newRunId, renderTerminal, writeRunArtifacts } from '../report/index.js';
import { rejudgeOutcome, type RejudgeOptions } from '../run/index.js';
import { formatPath } from '../run/declaration-schema.js';
import { evaluatorMisfits, unjudgedCriteria, unknownArmCriteria } from '../run/evaluator-fit.js';
import { trapOfArm } from '../run/traps/declaration.js';
import { asEvaluator, importDefault } from './load-module.js';
import { loadRun, readJsonFile } from './read-records.js';
import { UsageError } from './usage.js';

const require = createRequire(import.meta.url);

const noExpect: ExpectFunction = () => {
  throw new Error('this check calls expect, but the rejudge module exports none: add `expect` to its default export');
};

const MAX_PROBLEMS_SHOWN = 12;

/**
 * Why the evaluators (and the replacement Rubric, when given) cannot judge an Outcome's arms, a line per problem
 * naming its place; [] when they fit. The checks a trial's declaration gets (run/evaluator-fit.ts): without them a
 * misspelt criterion re-judges every attempt UNKNOWN ("uncovered") and never says which name was wrong.
 */
function misfits(
  outcome: Outcome,
  evaluators: readonly EvaluatorDefinition[],
  evaluatorsFile: string,
  replacement: { rubric: Rubric; source: string } | null,
): string[] {
  const rubric = replacement?.rubric ?? outcome.records.rubric;
  const known = rubric.criteria.map((c) => c.name);
  const trial = `trial "${outcome.trial.name}" (${outcome.trial.file})`;
  const lines = evaluatorMisfits(rubric, evaluators).map(
    (m) => `${evaluatorsFile}: evaluators[${m.evaluator}] ("${evaluators[m.evaluator]?.record.id}") ${m.problem}`,
  );
  const { arms } = outcome.records.suite;
  const armPath = (arm: Arm) => [`arm "${arm.id}"`];
  if (replacement) {
    // The arms' own criteria were checked against the Rubric they were declared with, not against this one.
    for (const arm of arms) {
      for (const p of unknownArmCriteria(arm.case, known))
        lines.push(`${replacement.source}: ${trial} ${formatPath([...armPath(arm), ...p.path])}: ${p.problem}`);
      const { trap } = arm.case;
      if (trap === null) continue;
      try {
        trapOfArm(
          trap,
          { field: armPath(arm)[0] ?? '', criteria: known, followUps: arm.case.followUps.length, role: arm.role },
          (at, problem) => new Error(`${replacement.source}: ${trial} ${at}: ${problem}`),
        );
      } catch (error) {
        lines.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
  for (const p of unjudgedCriteria(arms, arms.map(armPath), evaluators))
    lines.push(`${evaluatorsFile}: ${trial} ${formatPath(p.path)}: ${p.problem}`);
  return lines;
}

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
  const [target, ...extra] = positionals;
  if (!target) throw new UsageError('rejudge', 'needs a run folder, index.json or outcome.json');
  if (extra.length > 0) throw new UsageError('rejudge', `takes one run, got also ${extra.join(' ')}`);
  if (!values.evaluators)
    throw new UsageError('rejudge', 'needs --evaluators <module.js> (default-exporting { evaluators, rubric? })');
  const module = await importDefault(values.evaluators, 'evaluators');
  if (!Array.isArray(module.evaluators) || module.evaluators.length === 0) {
    throw new Error(`${values.evaluators}: the default export needs evaluators: [ … ] (at least one)`);
  }
  const evaluators = module.evaluators.map((e: unknown, i: number) =>
    asEvaluator(e, `${values.evaluators}: evaluators[${i}]`),
  );
  const rubricSource = values.rubric ?? `${values.evaluators}: default export .rubric`;
  const rubric: Rubric | undefined = values.rubric
    ? migrate('rubric', readJsonFile(values.rubric), values.rubric)
    : module.rubric === undefined
      ? undefined
      : migrate('rubric', module.rubric, rubricSource);
  const options: RejudgeOptions = {
    evaluators,
    expect: typeof module.expect === 'function' ? (module.expect as ExpectFunction) : noExpect,
    ...(rubric ? { rubric } : {}),
    ...(typeof module.claims === 'object' && module.claims !== null
      ? { claims: module.claims as ClaimCheckOptions }
      : {}),
  };

  const run = loadRun(target);
  const problems = [
    ...new Set(
      run.outcomes.flatMap((outcome) =>
        misfits(outcome, evaluators, values.evaluators as string, rubric ? { rubric, source: rubricSource } : null),
      ),
    ),
  ];
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    throw new Error(
      `riddle rejudge: the evaluators${rubric ? ' and the Rubric' : ''} do not fit the run's trials; nothing was re-judged:\n${shown.map((p) => `  ${p}`).join('\n')}${more > 0 ? `\n  … and ${more} more` : ''}`,
    );
  }
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
