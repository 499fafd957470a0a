/**
 * An attempt's abort: its budget running out or the run being interrupted. The AbortSignal subjects and tools see is
 * made only when one of them asks for it. On Node 20 making an AbortSignal builds new hidden classes in the old
 * generation, and whatever the attempt's objects they point to then outlives young-generation collections: one signal
 * per attempt piled up about a kilobyte of each attempt in the old generation until a full collection, most of a
 * long trial's memory, for subjects that never read it.
 */
export class AttemptAbort {
  #controller: AbortController | null = null;
  #aborted = false;
  #reason: unknown;
  readonly #waiting = new Set<() => void>();

  /** Whether the attempt was told to stop. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** The signal handed to subjects and tools: made on first reading, already aborted when the attempt was. */
  get signal(): AbortSignal {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Tell the attempt to stop (once; later calls keep the first reason). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    for (const waiting of [...this.#waiting]) waiting();
  }

  /** Call `then` when the attempt is told to stop (at once when it was); returns a function that stops waiting. */
  whenAborted(then: () => void): () => void {
    if (this.#aborted) {
      then();
      return () => {};
    }
    this.#waiting.add(then);
    return () => this.#waiting.delete(then);
  }
}

const ABORT = Symbol('riddle.attemptAbort');

/** The one getter every context shares: V8 reuses a hidden class only for the same accessor functions. */
function readSignal(this: { [ABORT]: AttemptAbort }): AbortSignal {
  return this[ABORT].signal;
}

/** The `signal` accessor every context gets. */
const SIGNAL: PropertyDescriptor = { get: readSignal, enumerable: true, configurable: true };

/**
 * `members` with a `signal` member that makes the attempt's signal when first read. An own, enumerable accessor, so
 * a context spread into another (`{ ...context }`) still carries the signal; defined with one shared getter, because
 * V8 keeps an object literal with a getter of its own (`get signal() {…}`) in dictionary mode, its properties in a
 * table of their own, and reuses a hidden class with an accessor only for the same getter function.
 */
export function withAttemptSignal<T extends object>(
  members: T,
  abort: AttemptAbort,
): T & { readonly signal: AbortSignal } {
  // The abort by assignment (a symbol member, out of Object.keys and JSON) and the accessor by one shared descriptor:
  // Object.defineProperty is a call into the runtime, twice an attempt for each context.
  (members as T & { [ABORT]: AttemptAbort })[ABORT] = abort;
  Object.defineProperty(members, 'signal', SIGNAL);
  return members as T & { readonly signal: AbortSignal };
}

/** Per long-lived signal, the callbacks waiting for it behind its one listener (see whenSignalAborts). */
const waitingOnSignal = new WeakMap<AbortSignal, (() => void)[]>();

const stopNothing = () => {};

/**
 * Call `then` when `signal` aborts (at once when it has); returns a function that stops waiting. For a signal that
 * outlives many attempts (the run's): an `abort` listener added and removed per attempt changes the signal's own
 * table of listeners, and V8 makes a Map's or Set's new table in the old generation when the collection lives there,
 * so each attempt left about 100 bytes there until a full collection (10 MB over a trial of 100,000 attempts). The
 * signal gets one listener; the callbacks wait in a list whose room is reused.
 */
export function whenSignalAborts(signal: AbortSignal, then: () => void): () => void {
  if (signal.aborted) {
    then();
    return stopNothing;
  }
  let waiting = waitingOnSignal.get(signal);
  if (waiting === undefined) {
    const list: (() => void)[] = [];
    waiting = list;
    waitingOnSignal.set(signal, list);
    signal.addEventListener(
      'abort',
      () => {
        waitingOnSignal.delete(signal);
        for (const callback of list.splice(0)) callback();
      },
      { once: true },
    );
  }
  waiting.push(then);
  const list = waiting;
  return () => {
    const at = list.lastIndexOf(then);
    if (at !== -1) list.splice(at, 1);
  };
}

/**
 * A signal aborted when either `own` (a test's, short-lived) or `lasting` (the run's, shared by every trial) aborts,
 * with the reason of the first; `unlink` stops following both. Unlike `AbortSignal.any`, which leaves a weak
 * reference in the lasting signal's set of dependants for every signal it makes (a Set in the old generation, grown
 * and cleaned once per trial), the lasting signal is waited on through `whenSignalAborts`; and once unlinked, the
 * abort Vitest gives every test's signal when the test is over reaches no one.
 */
export function eitherSignal(own: AbortSignal, lasting: AbortSignal): { signal: AbortSignal; unlink: () => void } {
  const either = new AbortController();
  if (own.aborted || lasting.aborted) {
    either.abort(own.aborted ? own.reason : lasting.reason);
    return { signal: either.signal, unlink: stopNothing };
  }
  const fromOwn = () => either.abort(own.reason);
  own.addEventListener('abort', fromOwn, { once: true });
  const stopWaiting = whenSignalAborts(lasting, () => either.abort(lasting.reason));
  return {
    signal: either.signal,
    unlink: () => {
      own.removeEventListener('abort', fromOwn);
      stopWaiting();
    },
  };
}
