import type { Case, CriterionFinding, CriterionResult, Observation, Rubric } from '../model/index.js';
import { combineFindings } from './combine.js';
import type { EvaluatorDefinition, ExpectFunction } from './evaluator.js';
import { gatherFindings, standInCase } from './findings.js';

export type ExpectedVerdict = CriterionResult['result'] | 'error';

export interface VerdictScenario {
  observation: Observation;
  rubric: Rubric;
  /** The criterion to read; may be left out when the evaluators judge exactly one. */
  criterion?: string;
  /** The label the result must carry, for multi-class criteria. */
  label?: string;
  /** The Case the checks see (default: a placeholder expecting the criterion). */
  case?: Case;
}

export interface VerdictOutcome {
  pass: boolean;
  expectation: string;
  actual: string;
  result: CriterionResult;
  findings: CriterionFinding[];
}

/**
 * Run evaluators on an Observation and compare the combined result on one criterion with the expected one
 * (`error` when any of them failed to judge it): for testing evaluators themselves.
 */
export async function evaluatorVerdict(
  received: EvaluatorDefinition | readonly EvaluatorDefinition[],
  expected: ExpectedVerdict,
  scenario: VerdictScenario,
  expect: ExpectFunction,
): Promise<VerdictOutcome> {
  const evaluators: readonly EvaluatorDefinition[] = Array.isArray(received)
    ? received
    : [received as EvaluatorDefinition];
  const judged = [...new Set(evaluators.flatMap((e) => e.record.criteria))];
  const criterion = scenario.criterion ?? (judged.length === 1 ? judged[0] : undefined);
  if (criterion === undefined) {
    throw new TypeError(
      `toHaveVerdict: the evaluators judge ${judged.join(', ')}: name the criterion to read ({ criterion })`,
    );
  }
  if (!scenario.rubric.criteria.some((c) => c.name === criterion)) {
    throw new TypeError(
      `toHaveVerdict: criterion "${criterion}" is not in rubric ${scenario.rubric.id} (${scenario.rubric.criteria.map((c) => c.name).join(', ')})`,
    );
  }
  const findings = (
    await gatherFindings({
      observation: scenario.observation,
      case: scenario.case ?? standInCase('evaluator-under-test', [criterion]),
      arm: scenario.case?.id ?? 'evaluator-under-test',
      attempt: 0,
      rubric: scenario.rubric,
      evaluators,
      expect,
    })
  ).filter((f) => f.criterion === criterion);
  const result = combineFindings(scenario.rubric, findings).find((r) => r.criterion === criterion);
  if (!result) throw new TypeError(`toHaveVerdict: no result for criterion "${criterion}"`);
  const errors = findings.filter((f) => f.result === 'error');
  const actualResult: ExpectedVerdict = errors.length ? 'error' : result.result;
  const labelOk = scenario.label === undefined || result.label === scenario.label;
  return {
    pass: actualResult === expected && labelOk,
    expectation: `${criterion} to be ${expected}${scenario.label === undefined ? '' : ` labelled ${scenario.label}`}`,
    actual: errors.length
      ? `an evaluator failed: ${errors.map((f) => f.note).join('; ')}`
      : `it was ${result.result}${result.label === null ? '' : ` labelled ${result.label}`}: ${result.reason}`,
    result,
    findings,
  };
}
