import { mkdir, rename, writeFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { TrialProgress } from '../model/index.js';
import { progressFile, type ProgressChannel } from './progress.js';

/** Channel folders this worker has made sure exist: once each, not once per trial. */
const madeFolders = new Set<string>();

/**
 * In the worker: a callback writing a trial's snapshot at most every `minIntervalMs` (the latest always lands), the
 * first one `minIntervalMs` after the trial starts. A trial that finished all its attempts before its first snapshot
 * was written writes none: it has no progress to show, and a file for each of many short trials cost more than their
 * attempts. Writes are asynchronous, one at a time: a
 * synchronous write and rename held the worker's event loop for milliseconds each, stalling every concurrent
 * attempt's I/O.
 */
export function progressWriter(
  channel: ProgressChannel,
  testId: string,
  minIntervalMs = 200,
): (progress: TrialProgress) => void {
  const file = progressFile(channel.dir, testId);
  const temp = `${file}.${process.pid}.tmp`;
  let last = Date.now();
  let latest: TrialProgress | null = null;
  let writing = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let wroteAny = false;
  const persist = async (progress: TrialProgress) => {
    try {
      if (!madeFolders.has(channel.dir)) await mkdir(channel.dir, { recursive: true });
      madeFolders.add(channel.dir);
      await writeFile(temp, JSON.stringify(progress));
      await rename(temp, file);
    } catch {
      // Progress is a courtesy: a folder removed at the end of the run must never fail a trial.
    }
  };
  const flush = () => {
    const progress = latest;
    if (progress === null) return;
    latest = null;
    if (!wroteAny && finished(progress)) return;
    wroteAny = true;
    writing = true;
    last = Date.now();
    void persist(progress).then(() => {
      writing = false;
      schedule();
    });
  };
  // Never two writes at once (an older snapshot could land after a newer one); the newest waiting one goes next.
  const schedule = () => {
    if (writing || timer !== null || latest === null) return;
    const wait = minIntervalMs - (Date.now() - last);
    if (wait <= 0) {
      flush();
      return;
    }
    timer = setTimeout(() => {
      timer = null;
      flush();
    }, wait);
    timer.unref?.();
  };
  return (progress) => {
    latest = progress;
    schedule();
  };
}

/** Every arm has run all its planned attempts or was stopped by its rule. */
const finished = (progress: TrialProgress) =>
  progress.arms.every((arm) => arm.done >= arm.planned || arm.stopped !== null);

/** The run service reporting a trial's progress, when the riddle reporter listens for it. */
export function progressReport(testId: string): { onProgress?: (progress: TrialProgress) => void } {
  const channel = inject('riddleProgress');
  return channel ? { onProgress: progressWriter(channel, testId) } : {};
}
