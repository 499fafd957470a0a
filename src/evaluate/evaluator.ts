import type { Case, EvidenceRef, Evaluator } from '../model/index.js';
import type { JudgeExchange, ObservationView } from './evidence.js';
import type { ScoreResult } from './scores.js';

/** The assertion function the host test framework provides (Vitest's `expect`); the core only catches its throws. */
export type ExpectFunction = (actual: unknown, message?: string) => unknown;

/**
 * Assertion failures the host records on its test instead of throwing them (Vitest's `expect.soft`). Those recorded
 * while a check runs are the check's: taken off the test, they make its criterion unmet. Left there, the test failed
 * while the Outcome said the criterion was met.
 */
export interface SoftAssertions {
  /** How many failures the test holds now. */
  count(): number;
  /** The messages of the failures recorded after the first `from`, removed from the test. */
  takeSince(from: number): string[];
}

/** Thrown by `context.unknown(reason)` (or a matcher finding nothing to judge): the criterion stays UNKNOWN. */
export class NoEvidence extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NoEvidence';
  }
}

export interface CheckContext {
  readonly expect: ExpectFunction;
  readonly case: Case;
  readonly arm: string;
  /** 0-based repetition index within the arm. */
  readonly attempt: number;
  /** The criterion being judged. */
  readonly criterion: string;
  /** End the check without a finding either way: the criterion stays UNKNOWN with this reason. */
  unknown(reason: string): never;
  /** Add evidence the check rests on beyond what it read through the view (e.g. a judge's verdict). */
  record(ref: EvidenceRef): void;
  /** Keep a model judge's prompt and raw reply on the finding. */
  retain(exchange: JudgeExchange): void;
}

/**
 * A finding a check states directly (judges and labels), instead of passing or throwing an assertion. `disputed`:
 * the evidence it read conflicts about the criterion's target (a receipt says a row was written, the row observer
 * says it was not); the criterion is then DISPUTED, with every piece it read kept.
 */
export interface CheckFinding {
  result: 'met' | 'unmet' | 'unknown' | 'disputed';
  /** The label given, when the evaluator answers in labels. */
  label: string | null;
  note: string;
}

/**
 * A criterion check: passes (met) by returning nothing or true, fails (unmet) by throwing an assertion (its message
 * kept as the evidence note) or returning false, calls `context.unknown` (no evidence), returns a label for a
 * multi-class criterion, a score for a scored one, or returns a `CheckFinding`. Any other throw or answer is an
 * evaluator error, never a FAIL.
 */
export type CriterionCheck = (
  observation: ObservationView,
  context: CheckContext,
) => CheckAnswer | Promise<CheckAnswer>;

/**
 * What a check may answer: nothing (met), true or false (met or unmet), a label, a stated finding, or, for a scored
 * criterion, a score in [0, 1] (a number or `{ score, note }`; see evaluate/scores).
 */
export type CheckAnswer = void | boolean | string | CheckFinding | number | ScoreResult;

/** An evaluator as run: its pinned record and one check per criterion it judges. */
export interface EvaluatorDefinition {
  record: Evaluator;
  checks: Readonly<Record<string, CriterionCheck>>;
}
