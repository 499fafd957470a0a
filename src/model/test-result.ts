import type { Outcome } from './outcome.js';
import type { TestOutcome } from './vocabulary.js';

/** How a trial's test ends: its outcome and, unless it passes, why. */
export interface TrialTestResult {
  outcome: TestOutcome;
  reason: string;
}

/**
 * How a trial's Outcome ends its test: as the verdict's declared test outcome, except that a policy changed after
 * results were seen fails the test until it is accepted on purpose (declared before seen). The one place this is
 * decided: the Vitest adapter ends the test by it, and the reports show it beside the verdict.
 */
export function trialTestResult(outcome: Outcome): TrialTestResult {
  const { testOutcome, reason } = outcome.judgment;
  if (testOutcome !== 'fail' && outcome.registration?.status === 'changed')
    return { outcome: 'fail', reason: 'the declared policy changed after results were seen' };
  return { outcome: testOutcome, reason };
}
