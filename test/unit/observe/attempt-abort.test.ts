import { describe, expect, it } from 'vitest';
import { AttemptAbort } from '../../../src/observe/attempt-abort.js';

describe("an attempt's abort", () => {
  it('makes its signal when first asked for, aborted with the first reason when the attempt already was', () => {
    const abort = new AttemptAbort();
    abort.abort(new Error('budget of 10 ms exceeded'));
    abort.abort(new Error('a later reason'));
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect((abort.signal.reason as Error).message).toBe('budget of 10 ms exceeded');
    expect(abort.signal).toBe(abort.signal);
  });

  it('aborts a signal handed out earlier, and calls whoever waits once, at once when it came too late', () => {
    const abort = new AttemptAbort();
    const { signal } = abort;
    const told: string[] = [];
    signal.addEventListener('abort', () => told.push('listener'));
    abort.whenAborted(() => told.push('waiting'));
    const stopped = abort.whenAborted(() => told.push('stopped waiting'));
    stopped();
    expect(signal.aborted).toBe(false);
    abort.abort('interrupted');
    abort.abort('again');
    expect(told).toEqual(['listener', 'waiting']);
    expect(signal.reason).toBe('interrupted');
    abort.whenAborted(() => told.push('late'));
    expect(told).toEqual(['listener', 'waiting', 'late']);
  });
});
