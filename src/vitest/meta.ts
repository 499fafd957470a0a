import type { OutcomeInTransit } from '../run/outcome-transit.js';

/**
 * What a trial's Vitest test carries to the reporter: its Outcome, built in the worker, as it travels (without the
 * order and cost rows its attempts file gives back, run/outcome-transit).
 */
export interface RiddleTaskMeta {
  trial: string;
  /** Line of the `trial(…)` call in its test file, when it could be told (for annotations). */
  line?: number | null;
  outcome?: OutcomeInTransit;
}

declare module 'vitest' {
  interface TaskMeta {
    riddle?: RiddleTaskMeta;
    /**
     * On a suite: Outcomes of trials cut short after their test had already ended (the run was cancelled or the
     * test timed out), so they could not travel in the test's own meta.
     */
    riddleCutShort?: OutcomeInTransit[];
  }
}
