/** Largest delay Node's timers honour, in milliseconds (2³¹ − 1); a longer one fires after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Time a subject past its budget may take to be stopped: observe/'s kill grace plus its abort grace. */
const STOP_GRACE_MS = 7_000;

/** Time for setup before the first attempt and for judging and assembling after the last, in milliseconds. */
const TRIAL_OVERHEAD_MS = 10_000;

/**
 * Longest a whole trial may take, in milliseconds: each wave of concurrent attempts may use every round's budget
 * plus the time it takes to stop the subject, and the trial adds setup and judging. Grows with n without bound.
 */
export function trialBudgetMs(shape: { attemptMs: number; rounds: number; waves: number }): number {
  return (shape.attemptMs * shape.rounds + STOP_GRACE_MS) * shape.waves + TRIAL_OVERHEAD_MS;
}

/**
 * The host's test timeout for a trial budget. A budget past the timer limit would be clamped by Node to 1 ms and
 * time the trial out at once, so it gets no test timeout at all (Infinity): the trial is still bounded, since
 * every attempt is stopped at its own budget and the number of attempts is declared.
 */
export function testTimeoutMs(budgetMs: number): number {
  return budgetMs <= MAX_TIMER_MS ? budgetMs : Number.POSITIVE_INFINITY;
}
