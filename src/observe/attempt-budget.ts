import { clearTimeout, setTimeout } from 'node:timers';
import { performance } from 'node:perf_hooks';

/**
 * The time budgets of the attempts running in this process, kept by one timer rather than one each: arming and
 * clearing a timer for every attempt cost about a tenth of a quick attempt's CPU (20 µs of it before the timer code is
 * optimised). The timer is set for the earliest budget's end; attempts of one trial share their budget, so each later
 * attempt ends later and the timer is set again only when it fires, about once a budget's length. Its timer and clock
 * come from node:timers and node:perf_hooks, never from globalThis: a subject runs in this process and may replace
 * the global ones (so may a test's fake timers), and a budget must end whatever it put there.
 */
interface RunningBudget {
  /** performance.now() at which the budget is spent. */
  readonly endsAt: number;
  readonly spent: () => void;
}

export type AttemptBudget = RunningBudget;

/**
 * A list whose room is reused rather than a Set: a Set living in the old generation gets each new table of an add or
 * delete made there too, about 100 bytes an attempt until a full collection (10 MB over a trial of 100,000 attempts).
 */
const running: RunningBudget[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let timerEndsAt = Number.POSITIVE_INFINITY;

/** Start a budget of `ms` milliseconds; `spent` is called once when it runs out before `endAttemptBudget`. */
export function startAttemptBudget(ms: number, spent: () => void): AttemptBudget {
  const budget: RunningBudget = { endsAt: performance.now() + ms, spent };
  running.push(budget);
  if (timer === null || budget.endsAt < timerEndsAt) setTimer(budget.endsAt);
  // A timer kept while no attempt runs does not hold the process open; one with a budget to keep does.
  else if (running.length === 1) timer.ref();
  return budget;
}

/** The attempt ended: its budget no longer runs. */
export function endAttemptBudget(budget: AttemptBudget): void {
  const at = running.lastIndexOf(budget);
  if (at === -1) return;
  running.splice(at, 1);
  if (running.length === 0) timer?.unref();
}

function setTimer(endsAt: number): void {
  if (timer !== null) clearTimeout(timer);
  timerEndsAt = endsAt;
  timer = setTimeout(budgetsDue, Math.max(0, endsAt - performance.now()));
  if (running.length === 0) timer.unref();
}

function budgetsDue(): void {
  timer = null;
  timerEndsAt = Number.POSITIVE_INFINITY;
  const now = performance.now();
  // The spent budgets taken out before any is told: a `spent` callback may start or end budgets itself.
  const due: RunningBudget[] = [];
  let kept = 0;
  for (const budget of running) {
    if (budget.endsAt <= now) due.push(budget);
    else running[kept++] = budget;
  }
  running.length = kept;
  for (const budget of due) {
    try {
      budget.spent();
    } catch (error) {
      // Thrown as from a timer of its own, after the other budgets are kept.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  let next = Number.POSITIVE_INFINITY;
  for (const budget of running) if (budget.endsAt < next) next = budget.endsAt;
  if (next !== Number.POSITIVE_INFINITY) setTimer(next);
}
