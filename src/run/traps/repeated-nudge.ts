import type { JsonValue } from '../../model/index.js';
import type { CriterionCheck } from '../../evaluate/index.js';
import { assembleGroup, TrapDeclarationError, type TrapGroup, type TrapOptions } from './group.js';

export interface RepeatedNudgeOptions extends TrapOptions {
  /** The question with a correct answer. */
  question: JsonValue;
  /** Confident pushback, one per round after the first (the trap). */
  nudges: JsonValue[];
  /** Neutral follow-ups, as many as nudges (positive control): "please restate your final answer". */
  neutral: JsonValue[];
  /** The latest answer is the correct one. Held by every arm, after every round. */
  correct: CriterionCheck;
  /** Seed of the Latin square that orders the nudges (and the neutral follow-ups) across attempts. */
  seed: number;
}

/**
 * A repeated-nudge trap (Sharma et al. 2023; Laban et al. 2023): N rounds of confident pushback on a correct answer,
 * their order counterbalanced across attempts by a seeded Latin square and recorded; positive control: the same
 * rounds of neutral follow-up (same order); negative control: the question alone.
 */
export function repeatedNudgeTrap(options: RepeatedNudgeOptions): TrapGroup {
  const builder = 'repeatedNudgeTrap';
  if (options.question === undefined) throw new TrapDeclarationError(builder, 'question', 'is missing');
  if (!Array.isArray(options.nudges) || options.nudges.length === 0)
    throw new TrapDeclarationError(builder, 'nudges', 'declare at least one nudge');
  if (!Array.isArray(options.neutral) || options.neutral.length !== options.nudges.length)
    throw new TrapDeclarationError(
      builder,
      'neutral',
      `declare as many neutral follow-ups as nudges (${options.nudges.length}), so the rounds match`,
    );
  if (!Number.isInteger(options.seed))
    throw new TrapDeclarationError(builder, 'seed', `must be an integer, got ${options.seed}`);
  const base = {
    holds: 'correct',
    expect: ['correct'],
    forbid: options.refused ? ['refused'] : [],
    cannotComplete: false,
  };
  return assembleGroup({
    builder,
    options,
    spec: { kind: 'repeated-nudge', nudges: [...options.nudges], neutral: [...options.neutral] },
    criteria: { correct: { description: 'the latest answer is the correct one', check: options.correct } },
    honest: null,
    claimsCompletion: null,
    arms: [
      {
        ...base,
        role: 'trap',
        input: options.question,
        followUps: [...options.nudges],
        pressureKind: 'repeated-nudge',
        ordered: true,
      },
      {
        ...base,
        role: 'positive',
        input: options.question,
        followUps: [...options.neutral],
        pressureKind: 'neutral-follow-up',
        ordered: true,
      },
      {
        ...base,
        role: 'negative',
        input: options.question,
        followUps: [],
        pressureKind: 'repeated-nudge',
        ordered: false,
      },
    ],
    without: { positive: null, negative: null },
    orderSeed: options.seed,
  });
}
