import type { AttemptRecord, Case, Clock, Rubric } from '../model/index.js';
import { decideAttempt } from './attempt-decision.js';
import type { ClaimExtractor, EvaluatorDefinition, ExpectFunction, SoftAssertions } from '../evaluate/index.js';
import { observeAttempt, type RowObserver, type Subject, type ToolDefinition } from '../observe/index.js';
import { judgeObservation } from './judge.js';
import { isoTime } from './iso-time.js';
import { sealedScrubber, withholdSealedMessages } from './sealing.js';
import type { AttemptSlot } from './schedule.js';
import { caseForAttempt } from './traps/order.js';

export interface AttemptSetup {
  case: Case;
  rubric: Rubric;
  evaluators: readonly EvaluatorDefinition[];
  subject: Subject;
  tools: readonly ToolDefinition[];
  clock: Clock;
  expect: ExpectFunction;
  /** Failures the host records without throwing (`expect.soft`); absent: none. */
  softAssertions?: SoftAssertions;
  /** Absolute fixture folder copied into the attempt's sandbox, or null. */
  fixtures: string | null;
  observers: readonly RowObserver[];
  keepFailedSandbox: boolean;
  /** Declared extractors that find claims in reply text, checked beside the structured ones. */
  claimExtractors: readonly ClaimExtractor[];
  /** Plaintext of a sealed Case: judged as it is, then scrubbed from everything the record retains. */
  sealedTexts: readonly string[];
  /** Aborting it stops the attempt's subject (the run was interrupted). */
  signal?: AbortSignal;
  /**
   * Called once the subject's part has ended and its Observation is whole, before judging it, which waits for the
   * promise returned: the trial's loop starts the lane's next attempt in between (run-trial, lanes that hand off).
   * The wait is not the attempt's time: `durationMs` leaves it out.
   */
  handOff?: () => Promise<void>;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Observe one attempt, then judge the retained Observation. Whatever throws becomes a status on the record: the
 * subject's throws are `subject_error`, an evaluator's `evaluator_error`, anything of riddle's own or of the
 * fixtures `harness_error`; none of them is a FAIL.
 */
export function runAttempt(slot: AttemptSlot, sequence: number, setup: AttemptSetup): Promise<AttemptRecord> {
  const judged = observeAndJudge(slot, sequence, setup);
  // The judged attempt's own promise when nothing is sealed: an async function awaiting it made two more an attempt.
  if (setup.sealedTexts.length === 0) return judged;
  return judged.then((record) => sealedScrubber(setup.sealedTexts)(withholdSealedMessages(record)));
}

async function observeAndJudge(slot: AttemptSlot, sequence: number, setup: AttemptSetup): Promise<AttemptRecord> {
  const started = setup.clock.now();
  const startedAt = isoTime(started);
  // Omitted per status, so each record passed in is checked against its own status's fields.
  type Unfinished = AttemptRecord extends infer R
    ? R extends AttemptRecord
      ? Omit<R, 'arm' | 'index' | 'sequence' | 'seed' | 'startedAt' | 'sandbox' | 'durationMs'>
      : never
    : never;
  /** How long the Observation waited for its judging's turn (see `handOff`). */
  let handedOffMs = 0;
  // The attempt's own members written out first, the status's spread after them: V8 (Node 20) makes an object slow to
  // build and to copy again when members are added after a spread (`{ ...a, ...b }` took tens of microseconds).
  const finish = (record: Unfinished): AttemptRecord => ({
    arm: slot.arm,
    index: slot.index,
    sequence,
    seed: slot.seed,
    startedAt,
    sandbox: null,
    durationMs: setup.clock.now() - started - handedOffMs,
    ...record,
  });
  let observed;
  try {
    observed = await observeAttempt({
      arm: slot.arm,
      attempt: slot.index,
      seed: slot.seed,
      // A trap's ordered follow-ups run in the attempt's Latin-square order (counterbalanced across attempts).
      case: caseForAttempt(setup.case, slot.index),
      subject: setup.subject,
      tools: setup.tools,
      clock: setup.clock,
      fixtures: setup.fixtures,
      observers: setup.observers,
      keepFailedSandbox: setup.keepFailedSandbox,
      ...(setup.signal ? { signal: setup.signal } : {}),
    });
  } catch (error) {
    const failure = { where: 'harness (observing the attempt)', message: message(error) };
    const { verdict, why, reason } = decideAttempt({
      status: 'harness_error',
      error: failure,
      case: setup.case,
      rubric: setup.rubric,
      criteria: [],
      claims: [],
    });
    return finish({
      status: 'harness_error',
      verdict,
      why,
      reason,
      observation: null,
      findings: [],
      criteria: [],
      claims: [],
      error: failure,
      pressure: null,
    });
  }
  const { observation } = observed;
  if (observed.status !== 'completed' || observation === null) {
    // Observing never completes without an Observation; were it to, riddle failed, not the subject.
    const status = observed.status === 'completed' ? 'harness_error' : observed.status;
    const error = observed.error ?? { where: 'riddle observe', message: 'the attempt ended without an Observation' };
    const { verdict, why, reason } = decideAttempt({
      status,
      error,
      case: setup.case,
      rubric: setup.rubric,
      criteria: [],
      claims: [],
    });
    const unjudged = { verdict, why, reason, findings: [], criteria: [], claims: [], error, pressure: null };
    // A blocked attempt did not run as declared (something it needs was unavailable): what its subject did before the
    // block is no evidence about the subject, so the record keeps only what was unavailable.
    const record = finish(
      status === 'blocked' ? { ...unjudged, status, observation: null } : { ...unjudged, status, observation },
    );
    return observed.sandbox ? { ...record, sandbox: observed.sandbox.path } : record;
  }
  if (setup.handOff) {
    const from = setup.clock.now();
    await setup.handOff();
    handedOffMs = setup.clock.now() - from;
  }
  const judgment = await judgeObservation({
    observation,
    case: setup.case,
    arm: slot.arm,
    attempt: slot.index,
    rubric: setup.rubric,
    evaluators: setup.evaluators,
    expect: setup.expect,
    ...(setup.softAssertions ? { softAssertions: setup.softAssertions } : {}),
    claims: { extractors: setup.claimExtractors },
    ...(setup.subject.secrets ? { secrets: setup.subject.secrets } : {}),
  });
  // Written out member by member: a spread followed by a member made V8 build a new hidden class for every attempt.
  const record = finish({
    status: judgment.status,
    verdict: judgment.verdict,
    why: judgment.why,
    reason: judgment.reason,
    findings: judgment.findings,
    criteria: judgment.criteria,
    claims: judgment.claims,
    error: judgment.error,
    pressure: judgment.pressure,
    observation,
  } as Unfinished);
  if (!observed.sandbox) return record;
  if (judgment.verdict === 'PASS') {
    await observed.sandbox.discard();
    return record;
  }
  return { ...record, sandbox: observed.sandbox.path };
}
