import type { Case, Evaluator } from '../model/index.js';
import type { ObservationView } from './evidence.js';

/** The assertion function the host test framework provides (Vitest's `expect`); the core only catches its throws. */
export type ExpectFunction = (actual: unknown, message?: string) => unknown;

/** Thrown by `context.unknown(reason)`: the check found no evidence either way. */
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
  readonly attempt: number;
  /** End the check without a finding either way: the criterion stays UNKNOWN with this reason. */
  unknown(reason: string): never;
}

/**
 * A criterion check: passes (met), throws an assertion (unmet, its message kept as the evidence note), calls
 * `context.unknown` (no evidence), or returns a label for a multi-class criterion. Any other throw is an
 * evaluator error, never a FAIL.
 */
export type CriterionCheck = (
  observation: ObservationView,
  context: CheckContext,
) => void | string | Promise<void | string>;

/** An evaluator as run: its pinned record and one check per criterion it judges. */
export interface EvaluatorDefinition {
  record: Evaluator;
  checks: Readonly<Record<string, CriterionCheck>>;
}
