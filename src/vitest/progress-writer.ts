import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { TrialProgress } from '../model/index.js';
import { progressFile, type ProgressChannel } from './progress.js';

/** In the worker: a callback writing a trial's snapshot at most every `minIntervalMs` (the latest always lands). */
export function progressWriter(
  channel: ProgressChannel,
  testId: string,
  minIntervalMs = 200,
): (progress: TrialProgress) => void {
  const file = progressFile(channel.dir, testId);
  let last = 0;
  let pending: TrialProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = (progress: TrialProgress) => {
    last = Date.now();
    try {
      mkdirSync(channel.dir, { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(progress));
      renameSync(temp, file);
    } catch {
      // Progress is a courtesy: a folder removed at the end of the run must never fail a trial.
    }
  };
  return (progress) => {
    if (Date.now() - last >= minIntervalMs) {
      write(progress);
      return;
    }
    pending = progress;
    timer ??= setTimeout(
      () => {
        timer = null;
        if (pending) write(pending);
        pending = null;
      },
      minIntervalMs - (Date.now() - last),
    );
    timer.unref?.();
  };
}

/** The run service reporting a trial's progress, when the riddle reporter listens for it. */
export function progressReport(testId: string): { onProgress?: (progress: TrialProgress) => void } {
  const channel = inject('riddleProgress');
  return channel ? { onProgress: progressWriter(channel, testId) } : {};
}
