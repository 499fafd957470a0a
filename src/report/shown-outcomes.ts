import type { Outcome } from '../model/index.js';
import { attemptsSummaries, type AttemptsSummary } from './attempts-summary.js';
import { mapStrings } from './safe-text.js';

/**
 * A run's Outcomes and the summaries of their attempts as the terminal and HTML reports show them: every string
 * neutralised (report/safe-text). The reporter makes them once for both reports; walking every string of every
 * Outcome was about 0.15 ms a trial each time.
 */
export interface ShownOutcomes {
  outcomes: readonly Outcome[];
  /** By position in `outcomes`. */
  attempts: readonly AttemptsSummary[];
}

/** The Outcomes and their attempts' summaries (`summaries` by position, or summarised from inline attempts), shown. */
export function shownOutcomes(
  unsafeOutcomes: readonly Outcome[],
  summaries: readonly (AttemptsSummary | undefined)[] = [],
): ShownOutcomes {
  return {
    outcomes: mapStrings(unsafeOutcomes),
    attempts: mapStrings(attemptsSummaries(unsafeOutcomes, summaries)),
  };
}
