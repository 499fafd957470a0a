import type { Outcome } from '../model/index.js';

/** What a trial's Vitest test carries to the reporter: its whole Outcome, built in the worker. */
export interface RiddleTaskMeta {
  trial: string;
  outcome?: Outcome;
}

declare module 'vitest' {
  interface TaskMeta {
    riddle?: RiddleTaskMeta;
  }
}
