import { gradeRank, type Case, type CriterionFinding, type EvidenceGrade, type Observation, type Rubric } from '../model/index.js';
import { createEvidenceRecorder, createObservationView } from './evidence.js';
import { NoEvidence, type EvaluatorDefinition, type ExpectFunction } from './evaluator.js';

function isAssertion(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AssertionError' || error.name === 'JestAssertionError' || 'matcherResult' in error;
}

function topGrade(grades: readonly EvidenceGrade[]): EvidenceGrade | null {
  let best: EvidenceGrade | null = null;
  for (const grade of grades) if (best === null || gradeRank(grade) > gradeRank(best)) best = grade;
  return best;
}

function trustedFor(evaluator: EvaluatorDefinition, criterion: string): boolean {
  const { record } = evaluator;
  if (record.kind !== 'model-judge') return true;
  return record.calibration?.criteria.find((c) => c.criterion === criterion)?.trusted ?? false;
}

/**
 * Run every evaluator's check on every criterion it judges, against the retained Observation only. Each check
 * yields one finding; nothing here decides a verdict.
 */
export async function gatherFindings(input: {
  observation: Observation;
  case: Case;
  arm: string;
  attempt: number;
  rubric: Rubric;
  evaluators: readonly EvaluatorDefinition[];
  expect: ExpectFunction;
}): Promise<CriterionFinding[]> {
  const findings: CriterionFinding[] = [];
  for (const evaluator of input.evaluators) {
    for (const criterionName of evaluator.record.criteria) {
      const criterion = input.rubric.criteria.find((c) => c.name === criterionName);
      const check = evaluator.checks[criterionName];
      if (!criterion || !check) continue;
      const recorder = createEvidenceRecorder();
      const view = createObservationView(input.observation, recorder);
      const base = { criterion: criterionName, evaluator: evaluator.record.id, trusted: trustedFor(evaluator, criterionName) };
      const finish = (result: CriterionFinding['result'], note: string, label: string | null = null): CriterionFinding => ({
        ...base,
        result,
        label,
        grade: result === 'met' || result === 'unmet' ? topGrade(recorder.refs.map((r) => r.grade)) : null,
        evidence: [...recorder.refs],
        note,
      });
      try {
        const returned = await check(view, {
          expect: input.expect,
          case: input.case,
          arm: input.arm,
          attempt: input.attempt,
          unknown(reason: string): never {
            throw new NoEvidence(reason);
          },
        });
        if (criterion.labels) {
          if (typeof returned !== 'string') {
            findings.push(finish('error', `multi-class criterion "${criterionName}" needs a label from [${criterion.labels.vocabulary.join(', ')}]; the check returned ${JSON.stringify(returned ?? null)}`));
          } else if (!criterion.labels.vocabulary.includes(returned)) {
            findings.push(finish('error', `label ${JSON.stringify(returned)} is outside the declared vocabulary [${criterion.labels.vocabulary.join(', ')}]`));
          } else {
            const met = criterion.labels.met.includes(returned);
            findings.push(finish(met ? 'met' : 'unmet', `labelled ${returned}`, returned));
          }
        } else {
          findings.push(finish('met', 'check passed'));
        }
      } catch (error) {
        if (error instanceof NoEvidence) findings.push(finish('unknown', error.message));
        else if (isAssertion(error)) findings.push(finish('unmet', (error as Error).message));
        else findings.push(finish('error', `${evaluator.record.id} threw on ${criterionName}: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
  }
  return findings;
}
