import type { Criterion, CriterionFinding } from '../model/index.js';
import { atMost } from '../statistics/tie.js';
import type { CheckContext, CriterionCheck } from './evaluator.js';
import type { ObservationView } from './evidence.js';

/** A scorer's answer with a note kept on the finding (e.g. a judge's rationale). */
export interface ScoreResult {
  /** In [0, 1]. */
  score: number;
  note?: string;
}

/**
 * A check of a scored criterion: it answers with a score in [0, 1] (a number, or `{ score, note }`), and the
 * Rubric's cutoff decides met (score ≥ cutoff) or unmet. It may still call `context.unknown(reason)` when there is
 * nothing to score; anything else it returns (a string, NaN, 1.2) is an evaluator error, never a low score.
 */
export type ScoreFunction = (
  observation: ObservationView,
  context: CheckContext,
) => number | ScoreResult | Promise<number | ScoreResult>;

/** Marks a check as a scorer; `Symbol.for` so that two copies of riddle (built and source) agree. */
const SCORER = Symbol.for('riddle.scorer');

/**
 * Declare a check as a scorer. Its criterion must be scored (`score: { cutoff }` in the Rubric): a scorer on any
 * other criterion is a declaration error.
 */
export function scorer(score: ScoreFunction): CriterionCheck {
  const check: CriterionCheck = (observation, context) => score(observation, context);
  Object.defineProperty(check, SCORER, { value: true });
  return check;
}

/** Whether a check was declared with `scorer(…)`. */
export function isScorer(check: unknown): boolean {
  return typeof check === 'function' && (check as unknown as Record<symbol, unknown>)[SCORER] === true;
}

/** What a check's answer settles on a criterion: a finding's result, label, note and score. */
export type SettledFinding = Pick<CriterionFinding, 'result' | 'label' | 'note' | 'score'>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A returned value that means a score: a number, or an object with `score` that is not a stated finding. */
function scoreShaped(value: unknown): boolean {
  return typeof value === 'number' || (isObject(value) && 'score' in value && !('result' in value));
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return 'a function';
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 80)}…` : json;
}

const error = (note: string): SettledFinding => ({ result: 'error', label: null, note, score: null });

/** Scores are shown to three places; the comparison uses the exact value. */
const shown = (x: number) => String(Number(x.toFixed(3)));

/**
 * Read a check's answer as a score when it is one, or when the criterion or the check calls for one; null when the
 * answer is an ordinary met/unmet/label answer for an ordinary criterion (settled elsewhere). A score on an
 * unscored criterion, or a malformed score, is an evaluator error naming the criterion and the value.
 */
export function settleScore(criterion: Criterion, returned: unknown, check: unknown): SettledFinding | null {
  const marked = isScorer(check);
  if (criterion.score === null) {
    if (marked)
      return error(
        `criterion "${criterion.name}" is not scored, but a scorer judges it: declare score: { cutoff } on the criterion`,
      );
    if (scoreShaped(returned))
      return error(
        `criterion "${criterion.name}" is not scored, but its check returned the score ${describe(isObject(returned) ? returned.score : returned)}: declare score: { cutoff } on the criterion, or pass or throw instead`,
      );
    return null;
  }
  if (!scoreShaped(returned)) {
    if (!marked) return null;
    return error(
      `scorer for criterion "${criterion.name}" returned ${describe(returned)}; a score is a number in [0, 1] (or { score, note })`,
    );
  }
  const value = isObject(returned) ? returned.score : returned;
  const note = isObject(returned) && typeof returned.note === 'string' ? returned.note : null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    return error(
      `scorer for criterion "${criterion.name}" returned the score ${describe(value)}; a score is a number in [0, 1] (never clamped)`,
    );
  }
  const { cutoff } = criterion.score;
  const met = atMost(cutoff, value);
  const verdict = `score ${shown(value)} ${met ? '≥' : '<'} cutoff ${shown(cutoff)}`;
  return { result: met ? 'met' : 'unmet', label: null, note: note ? `${verdict}: ${note}` : verdict, score: value };
}
