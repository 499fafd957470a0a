import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AttemptAbort, eitherSignal, whenSignalAborts } from '../../../src/observe/attempt-abort.js';

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

describe('waiting on a signal shared by many attempts', () => {
  it('gives the signal one listener however many attempts wait and stop waiting', () => {
    const run = new AbortController();
    for (let i = 0; i < 10_000; i += 1) whenSignalAborts(run.signal, () => expect.unreachable())();
    const told: number[] = [];
    const stops = [1, 2, 3].map((n) => whenSignalAborts(run.signal, () => told.push(n)));
    stops[1]?.();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    run.abort('interrupted');
    expect(told).toEqual([1, 3]);
    // Stopping after the abort, or twice, changes nothing.
    stops[0]?.();
    stops[0]?.();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('calls at once when the signal has aborted, and keeps signals apart', () => {
    const first = new AbortController();
    const second = new AbortController();
    const told: string[] = [];
    whenSignalAborts(first.signal, () => told.push('first'));
    whenSignalAborts(second.signal, () => told.push('second'));
    first.abort();
    expect(told).toEqual(['first']);
    whenSignalAborts(first.signal, () => told.push('late'));
    expect(told).toEqual(['first', 'late']);
    second.abort();
    expect(told).toEqual(['first', 'late', 'second']);
  });
});

describe("a trial's signal: its test's or the run's, whichever aborts first", () => {
  it("aborts with the reason of whichever aborts first, the test's or the run's", () => {
    for (const first of ['own', 'lasting'] as const) {
      const own = new AbortController();
      const lasting = new AbortController();
      const { signal } = eitherSignal(own.signal, lasting.signal);
      (first === 'own' ? own : lasting).abort(`${first} first`);
      (first === 'own' ? lasting : own).abort('second');
      expect(signal.reason).toBe(`${first} first`);
    }
  });

  it('is aborted at once when either already is', () => {
    const lasting = new AbortController();
    lasting.abort('interrupted before the trial');
    expect(eitherSignal(new AbortController().signal, lasting.signal).signal.reason).toBe(
      'interrupted before the trial',
    );
  });

  it('once unlinked, follows neither, and leaves one listener on the run signal however many trials ran', () => {
    const lasting = new AbortController();
    for (let i = 0; i < 1000; i++) {
      const own = new AbortController();
      const { signal, unlink } = eitherSignal(own.signal, lasting.signal);
      unlink();
      own.abort('the test is over');
      expect(signal.aborted).toBe(false);
      expect(getEventListeners(own.signal, 'abort')).toHaveLength(0);
    }
    expect(getEventListeners(lasting.signal, 'abort')).toHaveLength(1);
    const { signal } = eitherSignal(new AbortController().signal, lasting.signal);
    lasting.abort('interrupted');
    expect(signal.reason).toBe('interrupted');
  });
});
