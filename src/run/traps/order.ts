import type { Case, CaseTrap } from '../../model/index.js';
import { seededRandom, shuffle } from '../../statistics/index.js';

/**
 * A seeded k × k Latin square: the cyclic square with its rows, columns and symbols permuted by a seeded shuffle,
 * which keeps every symbol once per row and once per column. Row r is an order of the k items (declared indices),
 * so across k attempts each item takes each position exactly once (counterbalancing, as in a Williams design
 * without the carry-over balance).
 */
export function latinSquare(k: number, seed: number): number[][] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`latinSquare: k must be a whole number ≥ 1, got ${k}`);
  const random = seededRandom(seed);
  const indices = Array.from({ length: k }, (_, i) => i);
  const rows = shuffle(indices, random);
  const columns = shuffle(indices, random);
  const symbols = shuffle(indices, random);
  return rows.map((r) => columns.map((c) => symbols[(r + c) % k] as number));
}

/** True when `square` is a k × k Latin square on 0…k−1 (each row and column a permutation). */
export function isLatinSquare(square: readonly (readonly number[])[]): boolean {
  const k = square.length;
  const isPermutation = (values: readonly number[]) =>
    values.length === k && new Set(values).size === k && values.every((v) => Number.isInteger(v) && v >= 0 && v < k);
  return (
    k > 0 &&
    square.every(isPermutation) &&
    Array.from({ length: k }, (_, c) => square.map((row) => row[c] as number)).every(isPermutation)
  );
}

/** The order attempt `index` runs the ordered follow-ups in (declared indices), or null when none are ordered. */
export function trapOrder(trap: CaseTrap | null, index: number): number[] | null {
  if (!trap?.order) return null;
  const { square } = trap.order;
  return square[index % square.length] ?? null;
}

/**
 * The Case as attempt `index` runs it: its ordered follow-ups (the first `square.length` of them) in the order of
 * the attempt's Latin-square row; any later follow-up (the downstream task) stays where it is.
 */
export function caseForAttempt(declared: Case, index: number): Case {
  const order = trapOrder(declared.trap, index);
  if (order === null) return declared;
  const ordered = order.map((i) => declared.followUps[i] ?? null);
  return { ...declared, followUps: [...ordered, ...declared.followUps.slice(order.length)] };
}
