import type { Vitest } from 'vitest/node';
// Imported from its module: the main thread's side of the worker threads' announcements is not part of riddle/core.
import { ThreadLeftovers } from '../observe/leftovers.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type HostSignal = (typeof SIGNALS)[number];
type Listener = (...args: unknown[]) => void;

/** How long a cancelled run may take to end before the signal is handed to Vitest, which exits at once, in ms. */
const HANDOVER_GRACE_MS = 60_000;

/**
 * Ctrl-C and SIGTERM in the Vitest main process during a run. Vitest's own handler exits within a millisecond,
 * losing every Outcome of the run and leaving the subjects' process trees running. riddle takes both signals over
 * for the run: the first cancels it the way Vitest's watch mode does (nothing more starts; running trials are
 * aborted, stop their subjects and hand back the attempts that finished), so the run ends and its artifacts are
 * written, marked incomplete. A second signal, or the run not ending within the grace period, goes to Vitest's
 * handler, which exits at once. Worker threads (`pool: 'threads'`) die with this process without sweeping what they
 * hold, so before handing over it kills their subjects' process groups and removes their folders itself.
 */
export class InterruptHandover {
  private readonly earlier = new Map<HostSignal, Listener[]>();
  private received: HostSignal | null = null;
  private timer: NodeJS.Timeout | undefined;
  private threads: ThreadLeftovers | null = null;

  constructor(
    private readonly vitest: Vitest,
    private readonly log: (line: string) => void,
  ) {}

  /** The signal that interrupted the run, or null. */
  get interruptedBy(): HostSignal | null {
    return this.received;
  }

  /** Take the signals over (Vitest's listeners are kept, to be given back). */
  install(): void {
    if (this.earlier.size > 0) return;
    this.threads = new ThreadLeftovers();
    for (const signal of SIGNALS) {
      this.earlier.set(signal, process.rawListeners(signal) as Listener[]);
      process.removeAllListeners(signal);
      process.on(signal, this.onSignal);
    }
  }

  /** Give the signals back to the listeners they had; with a signal, raise it again for them (they exit at once). */
  handOver(signal?: HostSignal): void {
    clearTimeout(this.timer);
    if (signal) this.threads?.sweep();
    this.threads?.close();
    this.threads = null;
    if (this.earlier.size === 0) return;
    for (const name of SIGNALS) {
      process.off(name, this.onSignal);
      for (const listener of this.earlier.get(name) ?? []) process.on(name, listener);
    }
    this.earlier.clear();
    if (signal) process.kill(process.pid, signal);
  }

  private readonly onSignal = (signal: HostSignal): void => {
    if (this.received !== null) {
      this.handOver(signal);
      return;
    }
    this.received = signal;
    const again = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    this.log(
      `\nriddle: ${signal}: stopping the run; running trials stop their subjects and keep the attempts that finished (${again} again to exit at once)`,
    );
    this.timer = setTimeout(() => this.handOver(signal), HANDOVER_GRACE_MS);
    this.timer.unref();
    // The reason reaches the workers' trials with the abort (Vitest's TestRunAbortError carries it).
    void this.vitest.cancelCurrentRun(signal as Parameters<Vitest['cancelCurrentRun']>[0]);
  };
}
