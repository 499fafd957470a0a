import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { TrialProgress } from '../../../src/model/index.js';
import { progressFile } from '../../../src/vitest/progress.js';
import { progressWriter } from '../../../src/vitest/progress-writer.js';

const snapshot = (done: number, planned = 500): TrialProgress => ({
  trial: 'answers',
  rule: 'fixed',
  arms: [{ arm: 'case', done, planned, verdicts: { PASS: done }, stopped: null }],
});

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('progressWriter', () => {
  test('the newest snapshot lands, written without blocking the caller, and no temporary file stays', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'riddle-progress-test-')), 'channel');
    folders.push(path.dirname(dir));
    const report = progressWriter({ dir }, 'test-1', 0);
    for (let done = 1; done <= 500; done += 1) report(snapshot(done));
    // Nothing is written while the caller runs on: every write happens on the event loop's later turns.
    expect(() => readFileSync(progressFile(dir, 'test-1'), 'utf8')).toThrow();
    await vi.waitFor(
      () => {
        const written = JSON.parse(readFileSync(progressFile(dir, 'test-1'), 'utf8')) as TrialProgress;
        expect(written.arms[0]?.done).toBe(500);
      },
      { timeout: 30_000, interval: 5 },
    );
    // A write may still be finishing its rename: once the newest has landed, only the snapshot file remains.
    await vi.waitFor(() => expect(readdirSync(dir)).toEqual([path.basename(progressFile(dir, 'test-1'))]), {
      timeout: 30_000,
    });
  });

  test('a snapshot arriving while one is being written is written next, never an older one after it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-progress-test-'));
    folders.push(dir);
    const report = progressWriter({ dir }, 'test-2', 0);
    const seen: number[] = [];
    report(snapshot(1));
    report(snapshot(2));
    report(snapshot(3));
    await vi.waitFor(
      () => {
        try {
          const done = (JSON.parse(readFileSync(progressFile(dir, 'test-2'), 'utf8')) as TrialProgress).arms[0]?.done;
          if (done !== undefined && seen.at(-1) !== done) seen.push(done);
        } catch {
          // not written yet
        }
        expect(seen.at(-1)).toBe(3);
      },
      { timeout: 30_000, interval: 1 },
    );
    // Snapshots only move forward: 2 was superseded by 3 before its turn came, so it is never written.
    expect(seen).not.toContain(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  test('a trial that finished before its first snapshot was due writes none; a longer one writes its last', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-progress-test-'));
    folders.push(dir);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const short = progressWriter({ dir }, 'short', 200);
      short(snapshot(1, 1));
      const long = progressWriter({ dir }, 'long', 200);
      long(snapshot(1, 2));
      vi.advanceTimersByTime(1000);
      long(snapshot(2, 2));
      vi.advanceTimersByTime(1000);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(
      () => {
        const written = JSON.parse(readFileSync(progressFile(dir, 'long'), 'utf8')) as TrialProgress;
        expect(written.arms[0]?.done).toBe(2);
      },
      { timeout: 30_000, interval: 5 },
    );
    // The short trial's snapshot was due as soon as the long one's first: by now it would have landed too.
    expect(readdirSync(dir).sort()).toEqual([path.basename(progressFile(dir, 'long'))]);
  });

  test('a channel folder removed mid-run never throws into the trial', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-progress-test-'));
    folders.push(dir);
    const report = progressWriter({ dir }, 'test-3', 0);
    report(snapshot(1));
    rmSync(dir, { recursive: true, force: true });
    expect(() => report(snapshot(2))).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
