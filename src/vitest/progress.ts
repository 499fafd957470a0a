import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Vitest } from 'vitest/node';
import { TrialProgress } from '../model/index.js';
import { formatProgress } from '../report/index.js';

/**
 * Live progress of running trials. Vitest sends a test's meta only with its own events (start, annotation, end),
 * never while its body runs, and annotations are kept and printed by other reporters; so the worker writes each
 * trial's latest snapshot to a file in a folder the reporter provides, and the reporter reads them on a timer.
 */
export interface ProgressChannel {
  dir: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    riddleProgress: ProgressChannel | null;
  }
}

/** The file a trial's latest snapshot is written to. */
export const progressFile = (dir: string, testId: string) => path.join(dir, `${encodeURIComponent(testId)}.json`);

export interface ProgressOptions {
  /** Print a running trial's progress line at most this often (default 2 s on a terminal, 15 s in CI logs). */
  intervalMs?: number;
}

/** In the reporter: reads running trials' snapshots on a timer and prints a line for each that changed. */
export class ProgressMonitor {
  private readonly running = new Set<string>();
  private readonly printed = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private channel: ProgressChannel | null = null;

  constructor(
    private readonly print: (line: string) => void,
    private readonly intervalMs: number,
  ) {}

  /** Make the channel known to the workers of this run. */
  start(vitest: Vitest): void {
    this.channel = { dir: mkdtempSync(path.join(os.tmpdir(), 'riddle-progress-')) };
    vitest.provide('riddleProgress', this.channel);
    // A second Ctrl-C makes Vitest exit at once, before stop(): the channel folder must not outlive the process.
    process.once('exit', this.removeChannel);
  }

  private readonly removeChannel = (): void => {
    const channel = this.channel;
    this.channel = null;
    if (!channel) return;
    // A worker may still be writing a last snapshot as the run ends (its write is asynchronous and never awaited by
    // the test): the folder then fills again between emptying it and removing it (ENOTEMPTY). Removal is tried again a
    // few times, and a folder that still cannot be removed is left in the temporary folder: the run never fails for it.
    try {
      rmSync(channel.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // Left behind in os.tmpdir(), as a process killed before its end leaves it.
    }
  };

  testStarted(testId: string): void {
    this.running.add(testId);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.intervalMs);
      this.timer.unref?.();
    }
  }

  testEnded(testId: string): void {
    this.running.delete(testId);
    this.printed.delete(testId);
    if (this.running.size === 0) this.pause();
  }

  /** Print a line for each running trial whose progress changed since its last line. */
  tick(): void {
    if (!this.channel) return;
    for (const testId of this.running) {
      let progress: TrialProgress;
      try {
        const parsed = TrialProgress.safeParse(
          JSON.parse(readFileSync(progressFile(this.channel.dir, testId), 'utf8')),
        );
        if (!parsed.success) continue;
        progress = parsed.data;
      } catch {
        continue; // not written yet
      }
      const line = formatProgress(progress);
      if (this.printed.get(testId) === line) continue;
      this.printed.set(testId, line);
      this.print(`riddle ▸ ${line}`);
    }
  }

  private pause(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  stop(): void {
    this.pause();
    this.running.clear();
    process.off('exit', this.removeChannel);
    this.removeChannel();
  }
}
