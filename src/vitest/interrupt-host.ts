import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import type { Vitest } from 'vitest/node';
// Imported from its module: the main thread's side of the worker threads' announcements is not part of riddle/core.
import { ThreadLeftovers } from '../observe/leftovers.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type HostSignal = (typeof SIGNALS)[number];
type Listener = (...args: unknown[]) => void;

/** How long a cancelled run may take to end before the signal is handed to Vitest, which exits at once, in ms. */
const HANDOVER_GRACE_MS = 60_000;

/**
 * How long fork workers get to take a second signal (sweeping what they hold, then exiting) before they are killed, in
 * ms. A worker whose event loop is free takes it in milliseconds; only one whose subject blocks the loop waits it out.
 */
const WORKER_EXIT_MS = 2_000;

/**
 * Ctrl-C and SIGTERM in the Vitest main process during a run. Vitest's own handler exits within a millisecond,
 * losing every Outcome of the run and leaving the subjects' process trees running. riddle takes both signals over
 * for the run: the first cancels it the way Vitest's watch mode does (nothing more starts; running trials are
 * aborted, stop their subjects and hand back the attempts that finished), so the run ends and its artifacts are
 * written, marked incomplete. A second signal, or the run not ending within the grace period, goes to Vitest's
 * handler, which exits at once. Worker threads (`pool: 'threads'`) die with this process without sweeping what they
 * hold, so before handing over it kills their subjects' process groups and removes their folders itself. Fork workers
 * (`pool: 'forks'`) would outlive it when a subject blocks their event loop (their signal listeners never run), so it
 * ends them too (endForkWorkers).
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
    if (signal) {
      this.threads?.sweep();
      endForkWorkers(signal);
    }
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

/**
 * Before this process exits at once: end every Vitest fork worker it started, whatever its subjects do. Each is given
 * the signal twice, as its own second signal (the first of the two may be its first, when only this process was
 * signalled), so that a worker whose event loop is free kills its subjects' process groups, removes its sandboxes and
 * exits (run/interrupt.ts). A worker still there after WORKER_EXIT_MS did not respond (its loop is blocked): its
 * subjects' process groups (its children that lead a group of their own, as commandSubject starts them) and then the
 * worker are killed with SIGKILL; the folders it held stay behind, as no other process knows them. Linux only (it
 * reads /proc); elsewhere nothing is done and such a worker is left as Vitest leaves it.
 */
function endForkWorkers(signal: HostSignal): void {
  const workers = forkWorkers();
  if (workers.length === 0) return;
  // Twice, each time once the last is taken (a signal still pending merges with the next of the same kind).
  for (let round = 0; round < 2; round++) {
    for (const pid of workers) signalProcess(pid, signal);
    waitUntil(() => workers.every((pid) => !running(pid) || !pending(pid, signal)), WORKER_EXIT_MS);
  }
  waitUntil(() => workers.every((pid) => !running(pid)), WORKER_EXIT_MS);
  for (const pid of workers.filter(running)) {
    const groups = ownGroupChildren(pid);
    signalProcess(pid, 'SIGKILL');
    for (const group of groups) signalProcess(-group, 'SIGKILL');
  }
}

/** A process as /proc/<pid>/stat gives it (state, parent, process group), or null when it is gone or unreadable. */
function processStat(pid: number): { state: string; ppid: number; pgrp: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so the fields are read after the last ")".
  const [state = '', ppid = '', pgrp = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid), pgrp: Number(pgrp) };
}

/** Every process's id in /proc (none where there is no /proc). */
function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

/** Not exited: a zombie (exited, not yet reaped, as this process's blocked loop cannot reap it) counts as gone. */
function running(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

/** Vitest's entry point of a fork worker (`pool: 'forks'` or `'vmForks'`), as its command line names it. */
const FORK_WORKER = /[\\/]vitest[\\/]dist[\\/]workers[\\/](?:forks|vmForks)\.js$/;

/** This process's children that are Vitest fork workers: only those, never another process. */
function forkWorkers(): number[] {
  return processIds().filter((pid) => {
    if (processStat(pid)?.ppid !== process.pid || !running(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => FORK_WORKER.test(arg));
    } catch {
      return false;
    }
  });
}

/** A process's children that lead a process group of their own: the subjects' groups (commandSubject's `detached`). */
function ownGroupChildren(parent: number): number[] {
  return processIds().filter((pid) => {
    const stat = processStat(pid);
    return stat !== null && stat.ppid === parent && stat.pgrp === pid;
  });
}

/** Whether the signal was sent to the process and none of its threads has taken it yet (/proc/<pid>/status ShdPnd). */
function pending(pid: number, signal: HostSignal): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return false;
  }
  const mask = /^ShdPnd:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  if (mask === undefined) return false;
  return ((BigInt(`0x${mask}`) >> BigInt(constants.signals[signal] - 1)) & 1n) === 1n;
}

/** Send a signal to a process (or, negative, a process group); one already gone is not an error. */
function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Check every 10 ms, blocking, until the condition holds or `limitMs` passed: this process exits right after. */
function waitUntil(condition: () => boolean, limitMs: number): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < limitMs && !condition(); waited += 10) Atomics.wait(sleeper, 0, 0, 10);
}
