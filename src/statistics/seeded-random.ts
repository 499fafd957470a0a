import { assertInteger } from './validate.js';

/**
 * A seeded uniform random source on [0, 1), so that a run's order and resamples replay exactly.
 *
 * Mulberry32 (Tommy Ettinger, 2017; public domain): a 32-bit state advanced by the Weyl increment
 * 0x6D2B79F5 and mixed by xorshift-multiply steps; period 2³², passes gjrand/PractRand at this size.
 * Outputs are multiples of 2⁻³². The seed is any safe integer; its high 21 bits are folded into the
 * 32-bit state (so seeds that differ only above bit 32 still give different streams).
 */
export function seededRandom(seed: number): () => number {
  assertInteger('seededRandom', 'seed', seed, Number.MIN_SAFE_INTEGER);
  const high = Math.floor(seed / 4294967296);
  let state = (seed ^ Math.imul(high, 0x9e3779b9)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
