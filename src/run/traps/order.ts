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

/** Where one trap of a chain runs in an attempt: its position (1 = first) and its rounds (1-based, inclusive). */
export interface ChainPlace {
  group: string;
  position: number;
  first: number;
  last: number;
}

/**
 * Where each trap of a chain runs in attempt `index`, in declared order: the attempt's Latin-square row says which
 * trap comes at each position, and each trap's rounds stay together. Null on any arm that is not a chain's.
 */
export function chainLayout(trap: CaseTrap | null, index: number): ChainPlace[] | null {
  if (trap?.spec.kind !== 'chain') return null;
  const { members } = trap.spec;
  const order = trapOrder(trap, index) ?? members.map((_, i) => i);
  const places: ChainPlace[] = [];
  let round = 1;
  order.forEach((m, position) => {
    const member = members[m];
    if (!member) return;
    places[m] = { group: member.group, position: position + 1, first: round, last: round + member.rounds - 1 };
    round += member.rounds;
  });
  return places;
}

/**
 * The Case as attempt `index` runs it: its ordered follow-ups (the first `square.length` of them) in the order of
 * the attempt's Latin-square row; on a chain's arm, its traps' rounds (each trap's together) in that order; any
 * later follow-up (the downstream task) stays where it is.
 */
export function caseForAttempt(declared: Case, index: number): Case {
  const order = trapOrder(declared.trap, index);
  if (order === null) return declared;
  if (declared.trap?.spec.kind === 'chain') {
    const inputs = [declared.input, ...declared.followUps];
    const segments: (typeof inputs)[] = [];
    let at = 0;
    for (const member of declared.trap.spec.members) {
      segments.push(inputs.slice(at, at + member.rounds));
      at += member.rounds;
    }
    const [first, ...rest] = [...order.flatMap((m) => segments[m] ?? []), ...inputs.slice(at)];
    return { ...declared, input: first ?? declared.input, followUps: rest };
  }
  const ordered = order.map((i) => declared.followUps[i] ?? null);
  return { ...declared, followUps: [...ordered, ...declared.followUps.slice(order.length)] };
}
