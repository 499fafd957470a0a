import { sha256, type TrialSuite } from '../model/index.js';
import { seededRandom, shuffle } from '../statistics/index.js';

/** One planned attempt: which arm, which repetition, and the seed it gets. */
export interface AttemptSlot {
  arm: string;
  index: number;
  seed: number;
}

/** An attempt's seed depends on the trial seed, the arm and the repetition only, never on the order run. */
export function attemptSeed(trialSeed: number, arm: string, index: number): number {
  return Number.parseInt(sha256(`${trialSeed}:${arm}:${index}`).slice(0, 8), 16);
}

/**
 * The declared order of every attempt: `sequential` runs each arm's attempts together, `interleaved` takes one
 * attempt of each arm in turn (so drift over time hits all arms alike), `shuffled` is a permutation drawn from
 * the declared seed.
 */
export function scheduleAttempts(suite: TrialSuite): AttemptSlot[] {
  const { n, order, seed } = suite.repeat;
  const slot = (arm: string, index: number): AttemptSlot => ({ arm, index, seed: attemptSeed(seed, arm, index) });
  const arms = suite.arms.map((a) => a.id);
  switch (order) {
    case 'sequential':
      return arms.flatMap((arm) => Array.from({ length: n }, (_, index) => slot(arm, index)));
    case 'interleaved':
      return Array.from({ length: n }, (_, index) => arms.map((arm) => slot(arm, index))).flat();
    case 'shuffled':
      return shuffle(
        arms.flatMap((arm) => Array.from({ length: n }, (_, index) => slot(arm, index))),
        seededRandom(seed),
      );
    default:
      return order satisfies never;
  }
}
