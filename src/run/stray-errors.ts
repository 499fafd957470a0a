import { AsyncLocalStorage } from 'node:async_hooks';
import { clippedText, type AttemptRecord, type Case, type Rubric } from '../model/index.js';
import { attemptSecretValues, redactText } from '../observe/index.js';
import { decideAttempt } from './attempt-decision.js';

/** The attempt an asynchronous callback was started from, carried through timers and promises. */
interface Scope {
  watch: StrayErrors;
  attempt: string;
}

const scope = new AsyncLocalStorage<Scope>();
const watches = new Set<StrayErrors>();

// The attempt's async context reaches the process's 'uncaughtException' and 'unhandledRejection' listeners (for a
// throwing timer, immediate or tick as for a rejection), so `scope.getStore()` there names the attempt. No async hook
// of riddle's own: one with `before`/`after` callbacks makes Node call into JavaScript around every promise reaction,
// which cost more than an attempt's own work.

function strayed(kind: string, error: unknown, event: StrayEvent, promise?: unknown): void {
  // Kept with the attempt (its reason and why alike) and shown in every report: cut when it runs to megabytes, and
  // scrubbed of the secrets the subject was given, as its output is.
  // Scrubbed whole, then cut: a secret cut through would no longer match.
  const raw = `${kind} outside the awaited call: ${describe(error)}`;
  const scrubbed = (watch: StrayErrors | null) =>
    clippedText(redactText(raw, attemptSecretValues(watch?.secrets)), MESSAGE_CHARS);
  const owner = scope.getStore();
  if (owner && watches.has(owner.watch)) {
    owner.watch.record(owner.attempt, { message: scrubbed(owner.watch), by: fromExpect(error) ? 'check' : 'subject' });
    return;
  }
  if (owner) {
    // An attempt of a trial that has ended: no trial here is its own, and kept by none it would be lost.
    handToHost(event, error, promise, scrubbed(owner.watch));
    return;
  }
  // No async context (e.g. a rejection noticed later): it is the running attempt's when only one runs here.
  const running = [...watches].flatMap((watch) => watch.runningAttempts().map((attempt) => ({ watch, attempt })));
  const [only] = running;
  if (running.length === 1 && only)
    only.watch.record(only.attempt, { message: scrubbed(only.watch), by: fromExpect(error) ? 'check' : 'subject' });
  else for (const watch of watches) watch.unattributed.push(scrubbed(watch));
}

/** An error attributed to an attempt, and whose it is. */
export interface StrayError {
  message: string;
  /** `check`: an assertion of the test framework's expect, which checks use (one not awaited, `.resolves` say). */
  by: 'subject' | 'check';
}

/**
 * Whether an error is a failed assertion of Vitest's (or Jest's) expect: chai's AssertionError, which node:assert's
 * shares the name of but not the code, a matcher's result, or Vitest's context on it.
 */
function fromExpect(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  try {
    if ('matcherResult' in error || '__vitest_error_context__' in error || error.name === 'JestAssertionError')
      return true;
    return error.name === 'AssertionError' && (error as { code?: unknown }).code !== 'ERR_ASSERTION';
  } catch {
    return false;
  }
}

type StrayEvent = 'uncaughtException' | 'unhandledRejection';

/** Characters of a stray error's message kept at most. */
const MESSAGE_CHARS = 65_536;

/**
 * Hand an error to the host's own listeners (Vitest reports it as an unhandled error and fails the run). They are
 * called without riddle's: Vitest leaves an error to user code whenever another listener is there. With no listener of
 * the host's, the trials watching now keep it as unattributed, so it is seen.
 */
function handToHost(event: StrayEvent, error: unknown, promise: unknown, message: string): void {
  let heard = false;
  if (event === 'uncaughtException') {
    process.off('uncaughtException', onException);
    try {
      heard = process.emit('uncaughtException', error as Error);
    } finally {
      process.on('uncaughtException', onException);
    }
  } else {
    process.off('unhandledRejection', onRejection);
    try {
      heard = process.emit('unhandledRejection', error, promise as Promise<unknown>);
    } finally {
      process.on('unhandledRejection', onRejection);
    }
  }
  if (!heard) for (const watch of watches) watch.unattributed.push(`${message} (of a trial that had ended)`);
}

const describe = (error: unknown) => {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'a thrown value that cannot be shown as text';
  }
};

const onException = (error: unknown) => strayed('uncaught exception', error, 'uncaughtException');
const onRejection = (reason: unknown, promise: unknown) =>
  strayed('unhandled rejection', reason, 'unhandledRejection', promise);

/**
 * Errors a subject raises outside the call riddle awaits (a timer that throws, a promise nobody awaits that
 * rejects) while a trial runs. Each attempt runs in an async context, so such an error is attributed to the
 * attempt that started the callback, or to the only attempt running when the context is lost; any other is kept
 * for the trial as unattributed. Vitest leaves an error to any other listener of the process, so those are riddle's to
 * report; one of a trial that has ended is handed back to the host's listeners.
 */
export class StrayErrors {
  readonly unattributed: string[] = [];
  private readonly byAttempt = new Map<string, StrayError[]>();
  /**
   * Attempts running now. A list whose room is reused rather than a Set: a Set living in the old generation gets each
   * new table of an add or delete made there too, about 100 bytes an attempt until a full collection.
   */
  private readonly running: string[] = [];

  /** @param secrets the secrets the trial's subject was declared with (observe/subject `secrets`), scrubbed too. */
  constructor(readonly secrets?: readonly string[]) {
    if (watches.size === 0) {
      process.on('uncaughtException', onException);
      process.on('unhandledRejection', onRejection);
    }
    watches.add(this);
  }

  /**
   * Run one attempt (`arm#index`) in its own async context; the caller calls `ended` once it settled, whatever the
   * outcome (the trial's loop does, where it ends the attempt's other watches: an async function here, awaiting the
   * attempt in a try…finally of its own, made two promises more an attempt).
   */
  within<T>(attempt: string, run: () => Promise<T>): Promise<T> {
    this.running.push(attempt);
    return scope.run({ watch: this, attempt }, run);
  }

  /** The attempt `within` ran has settled. */
  ended(attempt: string): void {
    const at = this.running.lastIndexOf(attempt);
    if (at !== -1) this.running.splice(at, 1);
  }

  runningAttempts(): string[] {
    return this.running.slice();
  }

  record(attempt: string, error: StrayError): void {
    // Added in place: copying the list for each error grew with the square of an attempt's errors.
    const errors = this.byAttempt.get(attempt);
    if (errors === undefined) this.byAttempt.set(attempt, [error]);
    else errors.push(error);
  }

  /** Whether any error was attributed to an attempt so far. */
  anyAttributed(): boolean {
    return this.byAttempt.size > 0;
  }

  /** The errors attributed to an attempt so far. */
  of(attempt: string): StrayError[] {
    return this.byAttempt.get(attempt) ?? [];
  }

  /** Stop listening (once no trial watches, the process listeners are removed). */
  close(): void {
    watches.delete(this);
    if (watches.size === 0) {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    }
  }
}

/**
 * An attempt whose subject raised errors outside the awaited call: a subject_error, whatever its checks said. One whose
 * only such errors are assertions a check did not await is an evaluator_error: the check's failing, not the subject's.
 */
export function withStrayErrors(
  record: AttemptRecord,
  errors: readonly StrayError[],
  judged: { case: Case; rubric: Rubric },
): AttemptRecord {
  if (errors.length === 0) return record;
  const message = errors.map((e) => e.message).join('; ');
  const decide = (status: 'subject_error' | 'evaluator_error', error: { where: string; message: string }) =>
    decideAttempt({ status, error, case: judged.case, rubric: judged.rubric, criteria: [], claims: [] });
  if (errors.every((e) => e.by === 'check') && (record.status === 'completed' || record.status === 'evaluator_error')) {
    const error = { where: 'evaluators (an assertion a check did not await)', message };
    return { ...record, ...decide('evaluator_error', error), status: 'evaluator_error', error, pressure: null };
  }
  const error = { where: 'subject (outside the awaited call)', message };
  return { ...record, ...decide('subject_error', error), status: 'subject_error', error };
}
