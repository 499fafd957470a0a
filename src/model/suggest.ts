/**
 * Edit distance between two strings compared case-insensitively: insertions, deletions, substitutions and swaps of
 * two adjacent letters (the commonest typo: `reciept`), each one edit (optimal string alignment).
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= x.length; i += 1) {
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row) row[j] = best;
    }
  }
  return at(x.length, y.length);
}

/**
 * The accepted word a mistyped one most likely meant: the nearest by edit distance, when it is within a third of
 * the word's length (at least one edit); null when nothing is that close.
 */
export function didYouMean(word: string, accepted: readonly string[]): string | null {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { candidate: string; distance: number } | null = null;
  for (const candidate of accepted) {
    const distance = editDistance(word, candidate);
    if (distance <= limit && (best === null || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate ?? null;
}

/** The problem of a criterion name the Rubric lacks: the name it most likely meant, and the Rubric's names. */
export function unknownCriterion(name: string, known: readonly string[]): string {
  const guess = didYouMean(name, known);
  return `unknown criterion "${name}"${guess ? `; did you mean "${guess}"?` : ''} (the rubric has: ${known.join(', ')})`;
}

const quote = (text: string) => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;

/** A value as a user would recognise it in a message: "the string '20'", "an array", "nothing". */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : `${value}`;
  if (typeof value === 'boolean') return `${value}`;
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return 'an object';
}
