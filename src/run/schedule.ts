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
export function scheduleAttempts(suite: Pick<TrialSuite, 'repeat' | 'arms'>): AttemptSchedule {
  return new AttemptSchedule(suite);
}

/**
 * The planned attempts in their declared order, each made when asked for: a trial of 100,000 attempts holds two
 * numbers an attempt for a shuffled order and nothing for the others, where a list of slots held an object each.
 */
export class AttemptSchedule {
  readonly length: number;
  private readonly arms: readonly string[];
  private readonly n: number;
  private readonly seed: number;
  private readonly interleaved: boolean;
  /** For a shuffled order: the sequential position of the slot at each place. */
  private readonly positions: Uint32Array | null;

  constructor(suite: Pick<TrialSuite, 'repeat' | 'arms'>) {
    const { n, order, seed } = suite.repeat;
    this.arms = suite.arms.map((a) => a.id);
    this.n = n;
    this.seed = seed;
    this.length = this.arms.length * n;
    this.interleaved = order === 'interleaved';
    switch (order) {
      case 'sequential':
      case 'interleaved':
        this.positions = null;
        break;
      case 'shuffled':
        // The same permutation as shuffling the sequential list of slots itself.
        this.positions = Uint32Array.from(
          shuffle(
            Array.from({ length: this.length }, (_, k) => k),
            seededRandom(seed),
          ),
        );
        break;
      default:
        throw new Error(`riddle: unknown attempt order ${String(order satisfies never)}`);
    }
  }

  /** The slot at place `k` of the declared order (0-based). */
  at(k: number): AttemptSlot {
    if (!Number.isInteger(k) || k < 0 || k >= this.length)
      throw new RangeError(`riddle: no attempt at place ${k} of a schedule of ${this.length}`);
    const arms = this.arms.length;
    let arm: number;
    let index: number;
    if (this.interleaved) {
      arm = k % arms;
      index = Math.floor(k / arms);
    } else {
      const position = this.positions === null ? k : (this.positions[k] as number);
      arm = Math.floor(position / this.n);
      index = position % this.n;
    }
    const id = this.arms[arm] as string;
    return { arm: id, index, seed: attemptSeed(this.seed, id, index) };
  }
}
