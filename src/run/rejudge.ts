import type { AttemptRecord, Outcome, Rubric } from '../model/index.js';
import {
  englishClaimExtractor,
  type ClaimCheckOptions,
  type ClaimExtractor,
  type EvaluatorDefinition,
  type ExpectFunction,
} from '../evaluate/index.js';
import { judgeObservation } from './judge.js';
import { assembleOutcome } from './outcome.js';
import { decideTrial } from './decide.js';

export interface RejudgeOptions {
  /** A replacement Rubric; the Outcome's own when absent. */
  rubric?: Rubric;
  evaluators: readonly EvaluatorDefinition[];
  expect: ExpectFunction;
  claims?: ClaimCheckOptions;
}

/** Judge one retained attempt again; attempts that never produced an Observation keep their status. */
async function rejudgeAttempt(
  attempt: AttemptRecord,
  outcome: Outcome,
  rubric: Rubric,
  options: RejudgeOptions,
): Promise<AttemptRecord> {
  const armCase = outcome.records.suite.arms.find((a) => a.id === attempt.arm)?.case;
  const judgeable = attempt.status === 'completed' || attempt.status === 'evaluator_error';
  if (!armCase || !judgeable || attempt.observation === null) return attempt;
  const judgment = await judgeObservation({
    observation: attempt.observation,
    case: armCase,
    arm: attempt.arm,
    attempt: attempt.index,
    rubric,
    evaluators: options.evaluators,
    expect: options.expect,
    claims: options.claims ?? {},
  });
  return { ...attempt, ...judgment };
}

/** Extractors riddle ships, found again by the id an Outcome records. */
const BUILT_IN_EXTRACTORS: readonly ClaimExtractor[] = [englishClaimExtractor];

/**
 * The extractors the re-judged trial declared, so claims found in reply text are checked again rather than silently
 * dropped: built-in ones by id, others from the caller. A recorded extractor nobody supplies is a mistake to fix.
 */
function recordedExtractors(outcome: Outcome, given: readonly ClaimExtractor[]): ClaimExtractor[] {
  const available = [...given, ...BUILT_IN_EXTRACTORS];
  const missing = outcome.records.suite.claimExtractors.filter((id) => !available.some((e) => e.id === id));
  if (missing.length > 0) {
    throw new Error(
      `${outcome.trial.name}: its claims were also found by extractor(s) ${missing.join(', ')}; pass them as claims.extractors to re-judge (otherwise those claims would silently go unchecked)`,
    );
  }
  const ids = new Set([...outcome.records.suite.claimExtractors, ...given.map((e) => e.id)]);
  return available.filter((e, i) => ids.has(e.id) && available.findIndex((x) => x.id === e.id) === i);
}

/**
 * Of an arm's attempts, those the run's cut kept from running: recorded in its rule since riddle.outcome/5; before,
 * an incomplete trial's arm that no declared stopping rule ended lost all its attempts not run to the cut.
 */
function cutShortOf(outcome: Outcome, armId: string): number {
  const arm = outcome.arms.find((a) => a.arm === armId);
  if (!arm || !outcome.judgment.incomplete) return 0;
  if (arm.why?.rule.kind === 'cut-short') return arm.why.rule.notRun;
  const ruleEnded = outcome.execution.stopping.some(
    (stop) =>
      stop.arm === armId && (stop.decision === 'pass' || stop.decision === 'fail' || stop.decision === 'inconclusive'),
  );
  return ruleEnded ? 0 : arm.notRun.count;
}

/**
 * Re-judge an Outcome's retained Observations with other evaluators (and optionally another Rubric) without
 * running the subject again. The result is a new Outcome with new fingerprints that names the one it re-judged;
 * the given Outcome is not modified.
 */
export async function rejudgeOutcome(outcome: Outcome, options: RejudgeOptions): Promise<Outcome> {
  const rubric = options.rubric ?? outcome.records.rubric;
  const extractors = recordedExtractors(outcome, options.claims?.extractors ?? []);
  const resolved: RejudgeOptions = { ...options, claims: { ...options.claims, extractors } };
  const { suite: recorded, environment } = outcome.records;
  const suite = { ...recorded, claimExtractors: extractors.map((e) => e.id) };
  const attempts: AttemptRecord[] = [];
  for (const attempt of outcome.attempts) attempts.push(await rejudgeAttempt(attempt, outcome, rubric, resolved));
  const { arms, judgment } = decideTrial({
    suite,
    rubric,
    attempts,
    notRun: (arm) => outcome.arms.find((a) => a.arm === arm)?.notRun ?? { count: 0, reason: '' },
    blocked: outcome.judgment.blocked,
    cutShort: (arm) => cutShortOf(outcome, arm),
    // The run's untied errors stay with its evidence: re-judging it does not make it clean.
    strayErrors: outcome.execution.strayErrors,
  });
  return assembleOutcome({
    plan: { suite, rubric, environment, evaluators: options.evaluators },
    compositionSuite: outcome.compositions?.suite ?? null,
    attempts,
    arms,
    judgment,
    execution: { ...outcome.execution, rejudgedFrom: outcome.id },
  });
}
