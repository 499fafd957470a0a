import type { Outcome } from '../model/index.js';

/** What a trial's Vitest test carries to the reporter: its whole Outcome, built in the worker. */
export interface RiddleTaskMeta {
  trial: string;
  /** Line of the `trial(…)` call in its test file, when it could be told (for annotations). */
  line?: number | null;
  outcome?: Outcome;
}

declare module 'vitest' {
  interface TaskMeta {
    riddle?: RiddleTaskMeta;
    /**
     * On a suite: Outcomes of trials cut short after their test had already ended (the run was cancelled or the
     * test timed out), so they could not travel in the test's own meta.
     */
    riddleCutShort?: Outcome[];
  }
}
