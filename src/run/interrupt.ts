import { sweepLeftovers } from '../observe/index.js';

/**
 * The interruption of the trials in this process (or worker thread): a signal such as SIGINT, or the host
 * cancelling the run. Once interrupted, no trial starts and no further attempt is scheduled, and running attempts
 * are stopped (their subjects killed); what finished is kept, marked incomplete.
 */
export class Interruption {
  private readonly controller = new AbortController();

  /** Aborted, with the reason as a string, once interrupted. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the trials were interrupted (e.g. "SIGINT"), or null while they were not. */
  get reason(): string | null {
    return this.signal.aborted ? String(this.signal.reason) : null;
  }

  interrupt(reason: string): void {
    if (!this.signal.aborted) this.controller.abort(reason);
  }
}

/** This process's interruption, shared by every trial it runs. */
export const interruption = new Interruption();

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };
let guarded = 0;
let received = 0;

function onSignal(signal: NodeJS.Signals): void {
  if (guarded === 0) {
    // Between two trials, while the listeners linger: the signal does what it would without them.
    stopListening();
    process.kill(process.pid, signal);
    return;
  }
  received += 1;
  if (received === 1) {
    interruption.interrupt(signal);
    return;
  }
  // A second signal: exit now, after killing every subject process group and removing every sandbox still held.
  sweepLeftovers();
  exitAtOnce(signal);
}

/**
 * End this process now, as the signal would have without the guard: raised again with the listeners off, it kills the
 * process before `process.kill` returns. Not `process.exit`: in a Vitest fork worker it only throws while a test runs
 * ("process.exit unexpectedly called"), so the worker went on running. process.exit remains for a process that has
 * listeners of its own for the signal.
 */
function exitAtOnce(signal: NodeJS.Signals): void {
  stopListening();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  process.exit(EXIT_CODES[signal] ?? 1);
}

/**
 * How long the listeners stay once no trial holds the guard. Trials of a file run one after another: taking them off
 * and putting them back for every trial started and stopped Node's signal watchers each time (about 0.1 ms a trial).
 */
const LINGER_MS = 100;
let listening = false;
let lingering: NodeJS.Timeout | null = null;

function stopLingering(): void {
  if (lingering !== null) clearTimeout(lingering);
  lingering = null;
}

function stopListening(): void {
  stopLingering();
  if (!listening) return;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  listening = false;
}

/**
 * The linger is over. A signal that came while JavaScript ran is caught already and waits for the event loop's poll
 * phase, which comes after its timers: taken off now, the listeners would take that signal with them, unheard. They are
 * taken off at the check phase after, once such a signal was handled (onSignal raises it again).
 */
function lingerEnded(): void {
  lingering = null;
  setImmediate(() => {
    if (guarded === 0 && lingering === null) stopListening();
  }).unref();
}

/**
 * While a trial runs, take SIGINT and SIGTERM: the first interrupts the trials (so they stop their subjects and
 * hand back what finished) instead of killing the process outright, a second exits at once once the subjects are
 * killed. Returns the release; the default behaviour is back once no trial holds the guard (the listeners are taken
 * off LINGER_MS later, and a signal meanwhile is raised again without them). Worker threads get no signals: there,
 * the host cancelling the run does the same.
 */
export function guardSignals(): () => void {
  stopLingering();
  if (!listening) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    listening = true;
  }
  guarded += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    guarded -= 1;
    if (guarded === 0) {
      lingering = setTimeout(lingerEnded, LINGER_MS);
      // The listeners never keep the process alive.
      lingering.unref();
    }
  };
}

/**
 * What cut a trial short, in words, from its abort reason: a signal name ("SIGINT"), the host's cancellation (an
 * error carrying the cancel reason, e.g. Vitest's TestRunAbortError), or an error such as a timeout.
 */
export function describeInterruption(reason: unknown): string {
  if (typeof reason === 'string') return `interrupted by ${reason}`;
  if (reason instanceof Error) {
    const cause = (reason as Error & { reason?: unknown }).reason;
    return typeof cause === 'string' ? `interrupted by ${cause}` : `interrupted: ${reason.message}`;
  }
  return 'interrupted';
}
