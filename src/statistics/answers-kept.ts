/**
 * Answers of a pure function of a few numbers, kept per process. Arm verdicts ask the same questions again and again
 * (every trial of one attempt asks for the interval of 1 in 1 and the attempts that would settle it), and each answer
 * takes dozens of beta-tail solves: about 0.1 ms a trial. Only answers are kept (a call that throws keeps nothing);
 * each caller gets its own copy of the flat record, so changing it changes no later answer. Bounded: the kept answers
 * are dropped whole once `max` are held.
 */
export class AnswersKept<R extends object> {
  private readonly kept = new Map<string, R>();

  constructor(private readonly max = 4096) {}

  /**
   * The answer for these arguments, computed by `answer` the first time they are asked. Arguments other than numbers,
   * strings and undefined (a caller's mistake, which the function reports) are never looked up: always computed.
   */
  get(args: readonly unknown[], answer: () => R): R {
    const key = keyOf(args);
    if (key === null) return answer();
    let found = this.kept.get(key);
    if (found === undefined) {
      found = answer();
      if (this.kept.size >= this.max) this.kept.clear();
      this.kept.set(key, found);
    }
    return { ...found };
  }

  /** Answers held now (for tests of the bound). */
  get size(): number {
    return this.kept.size;
  }
}

/** One text per list of arguments: a number as JavaScript prints it (exact), a string quoted, so they never meet. */
function keyOf(args: readonly unknown[]): string | null {
  let key = '';
  for (const arg of args) {
    if (typeof arg === 'number') key += `${arg} `;
    else if (typeof arg === 'string') key += `${JSON.stringify(arg)} `;
    else if (arg === undefined) key += 'u ';
    else return null;
  }
  return key;
}
