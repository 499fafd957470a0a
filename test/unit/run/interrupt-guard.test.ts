import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardSignals, interruption } from '../../../src/run/interrupt.js';

/** The listeners guardSignals added: those on SIGINT now that were not there before. */
const added = (before: readonly unknown[]) => process.listeners('SIGINT').filter((l) => !before.includes(l));

describe('the signal guard of trials run one after another', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('keeps one pair of listeners across trials, and takes them off once none runs for a moment', () => {
    vi.useFakeTimers();
    const before = process.listeners('SIGINT');
    const terminating = process.listenerCount('SIGTERM');
    const first = guardSignals();
    expect(added(before)).toHaveLength(1);
    first();
    // The next trial starts before the listeners are taken off: the same ones serve it.
    const [listener] = added(before);
    const second = guardSignals();
    expect(added(before)).toEqual([listener]);
    expect(process.listenerCount('SIGTERM')).toBe(terminating + 1);
    second();
    vi.advanceTimersByTime(99);
    expect(added(before)).toEqual([listener]);
    // The linger ends; the listeners come off at the event loop's check phase, after any signal caught meanwhile.
    vi.advanceTimersByTime(1);
    expect(added(before)).toEqual([listener]);
    vi.advanceTimersByTime(1);
    expect(added(before)).toEqual([]);
    expect(process.listenerCount('SIGTERM')).toBe(terminating);
  });

  it('raises a signal that comes between trials again without its listeners, as if they were off', () => {
    vi.useFakeTimers();
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    const before = process.listeners('SIGTERM');
    guardSignals()();
    const [listener] = process.listeners('SIGTERM').filter((l) => !before.includes(l));
    expect(listener).toBeTypeOf('function');
    (listener as (signal: NodeJS.Signals) => void)('SIGTERM');
    expect(kill).toHaveBeenCalledWith(process.pid, 'SIGTERM');
    expect(process.listeners('SIGTERM')).toEqual(before);
    expect(interruption.signal.aborted).toBe(false);
  });
});
