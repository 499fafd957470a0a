import type { TrialJudgment } from '../model/index.js';

/**
 * A trial during which errors were raised outside any attempt's awaited call and could not be tied to one attempt
 * (run/stray-errors): something failed that no attempt's evidence accounts for, so whatever the arms decided cannot
 * stand as a clean result. The verdict is UNKNOWN and the test fails whatever `passOn` allows, so such a run is never
 * reported as clean. With no such errors the judgment is returned as it was.
 */
export function judgeStrayErrors<J extends Omit<TrialJudgment, 'reason'>>(
  judgment: J,
  strayErrors: readonly string[],
): J {
  if (strayErrors.length === 0) return judgment;
  return { ...judgment, verdict: 'UNKNOWN', testOutcome: 'fail' };
}
