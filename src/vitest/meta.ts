/**
 * What a trial's Vitest test carries to the reporter: its Outcome, built in the worker, as it travels (without the
 * order and cost rows its attempts file gives back, run/outcome-transit).
 */
export interface RiddleTaskMeta {
  trial: string;
  /** Line of the `trial(…)` call in its test file, when it could be told (for annotations). */
  line?: number | null;
  /**
   * The Outcome in transit (run/outcome-transit) as JSON text: one string crosses to the main process and stays in
   * Vitest's task tree of both processes, where the object of thousands of members it replaces cost serialising,
   * deserialising and collecting there, about a tenth of a millisecond a trial in each. The reporter also reads the
   * object earlier versions sent (a blob merged with --merge-reports): see `outcomeInTransitOf`.
   */
  outcome?: string;
}

/** The Outcome in transit a meta carries: parsed from its text, or the object earlier versions sent; undefined when it carries none, the text itself when it is not JSON. */
export function outcomeInTransitOf(carried: unknown): unknown {
  if (typeof carried !== 'string') return carried;
  try {
    return JSON.parse(carried);
  } catch {
    return carried;
  }
}

declare module 'vitest' {
  interface TaskMeta {
    riddle?: RiddleTaskMeta;
    /**
     * On a suite: Outcomes of trials cut short after their test had already ended (the run was cancelled or the
     * test timed out), so they could not travel in the test's own meta.
     */
    riddleCutShort?: string[];
  }
}
