import { canonicalJson, EVALUATOR_SCHEMA, type Evaluator, type JsonValue } from '../model/index.js';
import { flag, fn, listOf, nonEmpty, oneOf, optional, optionsChecker, text } from '../model/options-check.js';
import type { CriterionCheck, EvaluatorDefinition } from './evaluator.js';
import { ANY_TARGET } from './evidence.js';

/** A benchmark's recorded score of one recorded run. */
export interface RecordedReward {
  reward: number;
  /**
   * What the benchmark computed the reward from, for the evidence note (τ-bench: `r_actions 1, gt_data_hash …`);
   * null when the record does not say.
   */
  basis: string | null;
  /** The tool calls of the run it scores, in order: the reward binds to that run and no other. */
  calls: readonly { tool: string; arguments: JsonValue }[];
}

export interface RecordedRewardOptions {
  id: string;
  revision: string;
  criterion: string;
  /** The recorded reward of attempt `attempt` of Case `arm`; undefined when none was recorded. */
  rewards: (arm: string, attempt: number) => RecordedReward | undefined;
  /** Whether a reward counts as success; default τ-bench's: within 1e-6 of 1. */
  success?: (reward: number) => boolean;
  /**
   * A reward recorded without its basis: `as-recorded` counts it as the benchmark did (declare why, e.g. the data's
   * README says such runs hit the turn limit and scored 0), `unknown` leaves the criterion without evidence.
   */
  withoutBasis: 'as-recorded' | 'unknown';
  /** The recorded reward settles disagreement with the other evaluators of the criterion (it is the reference). */
  adjudicator?: boolean;
  limits?: readonly string[];
}

const succeeded = (reward: number) => Math.abs(reward - 1) <= 1e-6;

const checkOptions = optionsChecker<RecordedRewardOptions>(
  'recordedRewardEvaluator',
  {
    id: nonEmpty,
    revision: nonEmpty,
    criterion: nonEmpty,
    rewards: fn('a function (arm, attempt) => the recorded reward { reward, basis, calls }, or undefined'),
    success: optional(fn('a function (reward) => whether it counts as success')),
    withoutBasis: oneOf(['as-recorded', 'unknown']),
    adjudicator: optional(flag),
    limits: optional(listOf(text, 'an array of strings')),
  },
  'id',
);

/**
 * A benchmark's recorded reward as a mechanical, receipt-grade evaluator: the benchmark computed it from state the
 * run left (τ-bench compares the final database with the state the ground-truth actions produce, by hash), so it is a
 * receipt of the outcome rather than anyone's reading of the conversation. It binds to its run: when the attempt's
 * tool requests are not the recorded run's calls (same tools, same canonical arguments, same order), the criterion
 * stays UNKNOWN.
 */
export function recordedRewardEvaluator(options: RecordedRewardOptions): EvaluatorDefinition {
  checkOptions(options);
  const success = options.success ?? succeeded;
  const check: CriterionCheck = (view, context) => {
    const recorded = options.rewards(context.arm, context.attempt);
    if (recorded === undefined)
      return context.unknown(`no reward recorded for attempt ${context.attempt} of case "${context.arm}"`);
    const made = view.toolRequests.map((r) => `${r.tool}${canonicalJson(r.arguments)}`);
    const scored = recorded.calls.map((c) => `${c.tool}${canonicalJson(c.arguments)}`);
    if (made.length !== scored.length || made.some((call, i) => call !== scored[i]))
      return context.unknown(
        `the recorded reward scores another run (${scored.length} tool calls; this attempt made ${made.length})`,
      );
    if (recorded.basis === null && options.withoutBasis === 'unknown')
      return context.unknown(`reward ${recorded.reward} was recorded without its basis`);
    const basis = recorded.basis ?? 'recorded without its basis, counted as recorded';
    context.record({
      kind: 'receipt',
      target: ANY_TARGET,
      grade: 'receipt',
      detail: `reward ${recorded.reward} (${basis})`,
    });
    return {
      result: success(recorded.reward) ? 'met' : 'unmet',
      label: null,
      note: `recorded reward ${recorded.reward}: ${basis}`,
    };
  };
  const record: Evaluator = {
    schema: EVALUATOR_SCHEMA,
    id: options.id,
    kind: 'mechanical',
    revision: options.revision,
    criteria: [options.criterion],
    model: null,
    independence: {
      independent: true,
      reason: 'computed by the benchmark from the state the run left, not by the subject',
    },
    calibration: null,
    limits: [...(options.limits ?? [])],
    adjudicator: options.adjudicator ?? false,
  };
  return { record, checks: { [options.criterion]: check } };
}
