import type { TestContext } from 'vitest';
import { eitherSignal, sweepLeftovers } from '../observe/index.js';
import { describeInterruption, guardSignals, interruption } from '../run/index.js';
import type {} from './meta.js';

/** How long a suite's afterAll waits for a cut-short trial to stop its subjects and build its Outcome, in ms. */
export const CUT_SHORT_WAIT_MS = 60_000;

/** Trials of this worker still running, and those whose test ended before they did, by `file::name`. */
const running = new Map<string, Promise<void>>();
const endedEarly = new Map<string, TestContext['task']>();

/**
 * Wrap a trial's test body so that an interruption cuts it short without losing what finished: a trial does not
 * start once the run is interrupted; while it runs, SIGINT/SIGTERM interrupt it rather than kill the worker; and
 * the body gets a signal aborted by either the interruption or Vitest (a cancelled run, a timeout). When Vitest
 * ends the test before the body is done, the body still finishes (stopping the subjects, assembling an incomplete
 * Outcome) and `deliverCutShort` hands that Outcome on through the suite.
 */
export function guardTrial(
  key: string,
  body: (context: TestContext, signal: AbortSignal) => Promise<void>,
): (context: TestContext) => Promise<void> {
  return async (context) => {
    if (interruption.signal.aborted)
      context.skip(`riddle: ${describeInterruption(interruption.signal.reason)} before this trial started`);
    const release = guardSignals();
    const aborted = eitherSignal(context.signal, interruption.signal);
    const done = body(context, aborted.signal).finally(() => {
      aborted.unlink();
      release();
      if (context.signal.aborted) endedEarly.set(key, context.task);
      // A subject that would not stop when told (it ignores SIGTERM, its kill grace is long) outlives its abandoned
      // attempt; Vitest then ends this worker without the exit handlers that would sweep it. On an interrupted run,
      // nothing of this worker runs on: kill what is still held now.
      if (interruption.signal.aborted || isCancelled(context.signal)) sweepLeftovers();
    });
    running.set(key, done);
    try {
      await done;
    } finally {
      if (!context.signal.aborted) running.delete(key);
    }
  };
}

/** The host cancelled the run (Vitest's TestRunAbortError), rather than timing out this one test. */
function isCancelled(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof Error && signal.reason.name === 'TestRunAbortError';
}

/**
 * A suite's afterAll for the trials declared in it (`keys`, filled as they are declared): for each trial whose test
 * was ended early (cancelled or timed out) while its body still ran, wait for the body and put the Outcome it built
 * into the suite's meta, which reaches the reporter with the suite's result. One hook a suite, not one a trial: Vitest
 * registers and runs every hook of a file, 0.04 ms a trial for a file of a thousand one-attempt trials (measured).
 */
export function deliverCutShort(keys: readonly string[]) {
  // Vitest 4.1 reads a hook's fixtures from its first parameter, which must be a destructuring pattern.
  return async ({}: object, suite: { meta: TestContext['task']['meta'] }): Promise<void> => {
    const delivered = await Promise.all(keys.map(cutShortOutcome));
    const outcomes = delivered.filter((outcome): outcome is string => outcome !== undefined);
    if (outcomes.length > 0) suite.meta.riddleCutShort = [...(suite.meta.riddleCutShort ?? []), ...outcomes];
  };
}

/** The Outcome (transit JSON) of the trial `key` once its body is done, when its test was ended early. */
async function cutShortOutcome(key: string): Promise<string | undefined> {
  const pending = running.get(key);
  if (!pending) return undefined;
  await pending.catch(() => undefined);
  running.delete(key);
  const outcome = endedEarly.get(key)?.meta.riddle?.outcome;
  endedEarly.delete(key);
  return outcome;
}
