import type { Arm, Case, Rubric } from '../model/index.js';
import { isScorer, type EvaluatorDefinition } from '../evaluate/index.js';
import { unknownCriterion } from '../model/suggest.js';
import type { DeclarationProblem } from './declaration-schema.js';

// Whether evaluators, a Rubric and the arms they judge fit together: the checks a trial's declaration gets, shared
// with `riddle rejudge`, which pairs recorded arms with other evaluators or another Rubric. Pure: each returns the
// problems found with where they are; the caller names the place (a declaration's field, a module's export).

/** The criteria an arm names: those it expects, forbids and must hold under pressure. */
export type ArmCriteria = Pick<Case, 'expect' | 'forbid' | 'pressure'>;

function namedCriteria(armCase: ArmCriteria): [string[], readonly string[]][] {
  return [
    [['expect'], armCase.expect],
    [['forbid'], armCase.forbid],
    [['pressure', 'holds'], armCase.pressure ? [armCase.pressure.holds] : []],
  ];
}

/** Criteria an arm names that the Rubric lacks, each at its field (`expect`, `forbid`, `pressure.holds`). */
export function unknownArmCriteria(armCase: ArmCriteria, known: readonly string[]): DeclarationProblem[] {
  return namedCriteria(armCase).flatMap(([field, names]) =>
    names
      .filter((name) => !known.includes(name))
      .map((name) => ({ path: field, problem: unknownCriterion(name, known) })),
  );
}

/**
 * Criteria an arm expects, forbids or must hold under pressure that no evaluator judges (riddle gathers criterion
 * findings from evaluators alone): every attempt would leave them uncovered, UNKNOWN whatever the subject did.
 */
export function unjudgedCriteria(
  arms: readonly Pick<Arm, 'case'>[],
  armPaths: readonly (string | number)[][],
  evaluators: readonly EvaluatorDefinition[],
): DeclarationProblem[] {
  const judged = new Set(evaluators.flatMap((e) => e.record.criteria));
  return arms.flatMap((arm, i) =>
    namedCriteria(arm.case).flatMap(([field, names]) =>
      names
        .filter((name) => !judged.has(name))
        .map((name) => ({
          path: [...(armPaths[i] ?? []), ...field],
          problem: `no evaluator judges criterion "${name}", so every attempt would leave it uncovered (UNKNOWN): add a check for it (checks.${name}) or an evaluator whose criteria include it`,
        })),
    ),
  );
}

/** Something that keeps one evaluator from judging under a Rubric. */
export interface EvaluatorMisfit {
  /** Its index among the evaluators given. */
  evaluator: number;
  kind: 'same-id' | 'unknown' | 'unchecked' | 'unscored';
  /** The criterion at fault; '' for a repeated id. */
  criterion: string;
  /** The problem, worded to follow the evaluator's name (`judges unknown criterion "polit"; did you mean …`). */
  problem: string;
}

/**
 * Per evaluator, in order: an id another evaluator has (findings and disputes name evaluators by id), criteria it
 * declares or checks that the Rubric lacks, criteria it declares without a check, scorers of criteria the Rubric
 * does not score. Known up front rather than as an error (or an uncovered criterion) on every attempt.
 */
export function evaluatorMisfits(rubric: Rubric, evaluators: readonly EvaluatorDefinition[]): EvaluatorMisfit[] {
  const known = rubric.criteria.map((c) => c.name);
  const ids = new Set<string>();
  return evaluators.flatMap((evaluator, i): EvaluatorMisfit[] => {
    const misfits: EvaluatorMisfit[] = [];
    const add = (kind: EvaluatorMisfit['kind'], criterion: string, problem: string) =>
      misfits.push({ evaluator: i, kind, criterion, problem });
    if (ids.has(evaluator.record.id))
      add('same-id', '', 'another evaluator of this trial has the same id; give each evaluator an id of its own');
    ids.add(evaluator.record.id);
    for (const name of new Set([...evaluator.record.criteria, ...Object.keys(evaluator.checks)]))
      if (!known.includes(name)) add('unknown', name, `judges ${unknownCriterion(name, known)}`);
    for (const name of evaluator.record.criteria)
      if (typeof evaluator.checks[name] !== 'function')
        add(
          'unchecked',
          name,
          `declares criterion "${name}" but has no check for it: add checks.${name} to the evaluator, or leave the criterion out of its criteria`,
        );
    for (const [name, check] of Object.entries(evaluator.checks)) {
      const criterion = rubric.criteria.find((c) => c.name === name);
      if (criterion && criterion.score === null && isScorer(check))
        add(
          'unscored',
          name,
          `scores criterion "${name}", which is not scored: declare rubric.criteria.${name}.score = { cutoff } (a score ≥ cutoff meets it), or judge it with a check that passes or throws`,
        );
    }
    return misfits;
  });
}
