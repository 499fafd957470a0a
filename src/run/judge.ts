import {
  sameData,
  type AttemptRecord,
  type Case,
  type CriterionFinding,
  type CriterionResult,
  type Rubric,
} from '../model/index.js';
import { decideAttempt } from './attempt-decision.js';
import {
  checkClaims,
  combineFindings,
  gatherFindings,
  type ClaimCheckOptions,
  type GatherInput,
} from '../evaluate/index.js';
import { attemptSecretValues, redactText } from '../observe/index.js';
import { judgePressure } from './pressure.js';

type Judged = Extract<AttemptRecord, { status: 'completed' | 'evaluator_error' }>;

/** The judged part of an attempt record: completed, or an evaluator's error (kept apart per status). */
export type Judgment = Judged extends infer R
  ? R extends Judged
    ? Pick<R, 'status' | 'verdict' | 'why' | 'reason' | 'findings' | 'criteria' | 'claims' | 'error' | 'pressure'>
    : never
  : never;

export interface JudgeInput extends GatherInput {
  claims: ClaimCheckOptions;
  /** The secrets the subject was declared with (observe/subject `secrets`), scrubbed from notes as process.env's are. */
  secrets?: readonly string[];
}

/** The last completed judgment under each rubric (a trial's own): reused for the next attempt that finds alike. */
const lastJudged = new WeakMap<
  Rubric,
  {
    findings: CriterionFinding[];
    criteria: CriterionResult[];
    claims: readonly unknown[];
    case: Case;
    decided: ReturnType<typeof decideAttempt>;
  }
>();

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Findings whose notes may quote a secret scrubbed of it: a check's assertion or error can hold what it compared (a
 * check that the reply leaves out an API key names the key). A met finding's note is riddle's own.
 */
function withSecretsScrubbed(
  findings: CriterionFinding[],
  declared: readonly string[] | undefined,
): CriterionFinding[] {
  if (findings.every((f) => f.result === 'met')) return findings;
  const secrets = attemptSecretValues(declared);
  return findings.map((f) => {
    if (f.result === 'met') return f;
    const note = redactText(f.note, secrets);
    return note === f.note ? f : { ...f, note };
  });
}

/**
 * Judge a retained Observation: every evaluator's findings, combined per criterion, the subject's claims checked
 * against receipts, then the attempt's verdict. An evaluator that fails makes the status `evaluator_error`, never
 * a FAIL. The same path serves a fresh attempt and a re-judged one.
 */
export async function judgeObservation(input: JudgeInput): Promise<Judgment> {
  const { observation, rubric } = input;
  let findings;
  try {
    findings = withSecretsScrubbed(await gatherFindings(input), input.secrets);
  } catch (error) {
    const failure = { where: 'evaluators', message: redactText(message(error), attemptSecretValues(input.secrets)) };
    const { verdict, why, reason } = decideAttempt({
      status: 'evaluator_error',
      error: failure,
      case: input.case,
      rubric,
      criteria: [],
      claims: [],
    });
    return {
      status: 'evaluator_error',
      verdict,
      why,
      reason,
      findings: [],
      criteria: [],
      claims: [],
      error: failure,
      pressure: null,
    };
  }
  // Most attempts of a trial find what the attempt before found: its criteria and decision are taken as they are
  // (combining and deciding are pure functions of the rubric, the findings, the claims and the Case), and its findings
  // kept in place of these equal ones, so the lean copy and the attempt's line take them as shared without a walk.
  const before = lastJudged.get(rubric);
  const alike = before !== undefined && sameData(before.findings, findings);
  if (alike) findings = before.findings;
  const criteria = alike ? before.criteria : combineFindings(rubric, findings);
  const claims = checkClaims(observation, input.claims);
  const errored = findings.find((f) => f.result === 'error');
  if (errored) {
    const status = 'evaluator_error';
    const error = { where: `evaluator ${errored.evaluator} on ${errored.criterion}`, message: errored.note };
    const { verdict, why, reason } = decideAttempt({ status, error, case: input.case, rubric, criteria, claims });
    return { status, verdict, why, reason, findings, criteria, claims, error, pressure: null };
  }
  const status = 'completed';
  const decided =
    alike && before.case === input.case && before.claims.length === 0 && claims.length === 0
      ? before.decided
      : decideAttempt({ status, error: null, case: input.case, rubric, criteria, claims });
  lastJudged.set(rubric, { findings, criteria, claims, case: input.case, decided });
  const { verdict, why, reason } = decided;
  const { pressure } = input.case;
  const judged = pressure
    ? await judgePressure({ ...input, case: { ...input.case, pressure }, criteria, claims })
    : null;
  return { status, verdict, why, reason, findings, criteria, claims, error: null, pressure: judged };
}
