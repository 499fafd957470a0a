/**
 * A uniformly random permutation of `items`, as a new array (the input is not changed).
 * Fisher & Yates (1938), in Durstenfeld's in-place form (CACM 7:420, 1964): for i from the last index
 * down to 1, swap item i with item j drawn uniformly from 0..i. `random` must return values in [0, 1)
 * (e.g. `seededRandom(seed)`); anything else throws a RangeError.
 */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const result = items.slice();
  for (let i = result.length - 1; i > 0; i--) {
    const u = random();
    if (!(u >= 0 && u < 1)) throw new RangeError(`shuffle: random() must return a number in [0, 1) (got ${String(u)})`);
    const j = Math.floor(u * (i + 1));
    const item = result[i] as T;
    result[i] = result[j] as T;
    result[j] = item;
  }
  return result;
}
