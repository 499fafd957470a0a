import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import { INLINE_ATTEMPTS, INLINE_BYTES } from '../../../src/report/outcome-files.js';
import { HELD_AT_MOST_MS, type HoldTimer } from '../../../src/run/held-attempts.js';
import {
  AttemptStream,
  HeldAttempts,
  resolveTrial,
  runTrial,
  type AttemptSink,
  type TrialDeclaration,
} from '../../../src/run/index.js';
import { lines, streamFile } from './stream-files.js';
import { anEnvironment, attempt } from '../builders.js';

/** A timer the test fires by hand, remembering what was set and cleared. */
class HandTimer implements HoldTimer {
  pending: { callback: () => void; ms: number } | null = null;
  sets = 0;
  set(callback: () => void, ms: number): unknown {
    this.sets += 1;
    this.pending = { callback, ms };
    return this.pending;
  }
  clear(handle: unknown): void {
    if (handle === this.pending) this.pending = null;
  }
  fire(): void {
    const pending = this.pending;
    this.pending = null;
    pending?.callback();
  }
}

const declaration = (subject: TrialDeclaration['subject'], n: number): TrialDeclaration => ({
  subject,
  revision: 'held@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => void vitestExpect(String(o.reply)).toMatch(/^yes/) },
  case: { input: 'a', expect: ['answers'] },
  repeat: { n, stop: 'fixed' },
});

async function run(n: number, attempts: AttemptSink | null): Promise<Outcome> {
  let calls = 0;
  const subject = () => (++calls % 3 === 0 ? 'no' : 'yes');
  const resolved = resolveTrial({ name: 'held trial', file: 'held.test.ts', path: [] }, declaration(subject, n));
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect, attempts },
  );
}

describe('HeldAttempts', () => {
  it('keeps a small trial’s attempts in its Outcome and never creates the file; the id is the streamed one’s', async () => {
    const file = streamFile();
    const timer = new HandTimer();
    let opened = 0;
    const inline = await run(
      3,
      new HeldAttempts(() => {
        opened += 1;
        return new AttemptStream(file);
      }, timer),
    );
    expect(opened).toBe(0);
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(inline.attemptsFile).toBeNull();
    expect(inline.attempts.map((a) => [a.sequence, a.verdict])).toEqual([
      [0, 'PASS'],
      [1, 'PASS'],
      [2, 'FAIL'],
    ]);
    // The timer that would have written them out was cleared when the trial ended.
    expect(timer.sets).toBe(1);
    expect(timer.pending).toBeNull();

    const streamed = await run(3, new AttemptStream(streamFile()));
    expect(streamed.attemptsFile).not.toBeNull();
    expect(inline.id).toBe(streamed.id);
    expect(lines(streamed.attemptsFile ?? '')).toEqual(inline.attempts.map((a) => JSON.parse(JSON.stringify(a))));
  });

  it(`writes every attempt out once there are more than ${INLINE_ATTEMPTS}, the held ones first, in order`, async () => {
    const file = streamFile();
    const n = INLINE_ATTEMPTS + 3;
    const outcome = await run(n, new HeldAttempts(() => new AttemptStream(file), new HandTimer()));
    expect(outcome.attemptsFile).toBe(file);
    expect(outcome.attempts).toEqual([]);
    expect(lines(file).map((a) => a.sequence)).toEqual(Array.from({ length: n }, (_, i) => i));
    const inMemory = await run(n, null);
    expect(outcome.id).toBe(inMemory.id);
  });

  it(`writes the held attempts out when the first has waited ${HELD_AT_MOST_MS} ms, and each later one as it comes`, async () => {
    const file = streamFile();
    const timer = new HandTimer();
    const held = new HeldAttempts(() => new AttemptStream(file), timer);
    const first = attempt('case', 0, 'PASS');
    expect(held.add(first)).toBe(first);
    held.add(attempt('case', 1, 'PASS'));
    expect(timer.pending?.ms).toBe(HELD_AT_MOST_MS);
    expect(existsSync(file)).toBe(false);
    timer.fire();
    // The stream writes what it was given at the event loop's next turn (run/attempt-stream).
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await turn();
    expect(lines(file).map((a) => a.index)).toEqual([0, 1]);
    held.add(attempt('case', 2, 'FAIL'));
    await turn();
    expect(lines(file).map((a) => a.index)).toEqual([0, 1, 2]);
    expect(timer.sets).toBe(1);
    expect(held.finish()?.count).toBe(3);
  });

  it(`writes out attempts holding more than about ${INLINE_BYTES} bytes at once, however few`, async () => {
    const file = streamFile();
    let opened = 0;
    const held = new HeldAttempts(() => {
      opened += 1;
      return new AttemptStream(file);
    }, new HandTimer());
    const large = attempt('case', 0, 'PASS', { reason: 'x'.repeat(INLINE_BYTES * 0.6) });
    expect(held.add(large)).toBe(large);
    expect(opened).toBe(0);
    // A second such attempt takes the held ones past the bound: both go to the file.
    held.add(attempt('case', 1, 'PASS', { reason: 'y'.repeat(INLINE_BYTES * 0.6) }));
    expect(opened).toBe(1);
    expect(held.finish()?.count).toBe(2);
    expect(lines(file).map((a) => a.index)).toEqual([0, 1]);
  });

  it('gives the trial an error met writing out on the timer at its next attempt', () => {
    const timer = new HandTimer();
    const held = new HeldAttempts(() => {
      throw new Error('disk full');
    }, timer);
    held.add(attempt('case', 0, 'PASS'));
    expect(() => timer.fire()).not.toThrow();
    expect(() => held.add(attempt('case', 1, 'PASS'))).toThrow(/disk full/);
  });

  it('takes nothing once finished', () => {
    const held = new HeldAttempts(() => new AttemptStream(streamFile()), new HandTimer());
    expect(held.finish()).toBeNull();
    expect(() => held.add(attempt('case', 0, 'PASS'))).toThrow(/finished/);
    expect(() => held.finish()).toThrow(/already finished/);
  });
});
