import { afterEach, describe, expect, it, vi } from 'vitest';
import { endAttemptBudget, startAttemptBudget } from '../../../src/observe/attempt-budget.js';

/** A budget's end as a promise: the performance.now() at which it was found spent. */
function spentAt(ms: number): { at: Promise<number>; budget: ReturnType<typeof startAttemptBudget> } {
  let resolve: (at: number) => void = () => {};
  const at = new Promise<number>((done) => {
    resolve = done;
  });
  return { at, budget: startAttemptBudget(ms, () => resolve(performance.now())) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('attempt budgets kept by one timer', () => {
  it('ends each budget at or after its length, a shorter one started later first', async () => {
    const started = performance.now();
    const long = spentAt(120);
    const short = spentAt(20);
    const firstDone = await Promise.race([long.at.then(() => 'long'), short.at.then(() => 'short')]);
    expect(firstDone).toBe('short');
    expect((await short.at) - started).toBeGreaterThanOrEqual(19);
    expect((await long.at) - started).toBeGreaterThanOrEqual(119);
  });

  it('never ends a budget whose attempt ended first, and keeps the others', async () => {
    const spent: string[] = [];
    const ended = startAttemptBudget(10, () => spent.push('ended'));
    const kept = spentAt(30);
    endAttemptBudget(ended);
    await kept.at;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(spent).toEqual([]);
  });

  it('ends budgets started after the timer fired with none running, and after many attempts in a row', async () => {
    for (let i = 0; i < 1000; i += 1) endAttemptBudget(startAttemptBudget(5, () => expect.unreachable()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = spentAt(10);
    expect(await later.at).toBeGreaterThan(0);
  });

  it('is not held by a timer set while a test faked the timers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const faked = startAttemptBudget(5, () => {});
    endAttemptBudget(faked);
    vi.useRealTimers();
    // Ends after the faked timer was due, which never fires: without a real timer set for it, it would never end.
    const real = spentAt(50);
    expect(await real.at).toBeGreaterThan(0);
  });

  it('ends on time a budget that a spent budget started, however long the others running', async () => {
    const long = spentAt(400);
    const chained = new Promise<string>((resolve) => {
      startAttemptBudget(5, () => {
        startAttemptBudget(10, () => resolve('chained'));
      });
    });
    expect(await Promise.race([chained, long.at.then(() => 'long')])).toBe('chained');
    endAttemptBudget(long.budget);
  });

  it('keeps the other budgets when one whose end throws is spent', async () => {
    const thrown = new Promise<unknown>((resolve) => {
      process.once('uncaughtException', resolve);
    });
    startAttemptBudget(5, () => {
      throw new Error('listener failed');
    });
    const other = spentAt(5);
    expect(await other.at).toBeGreaterThan(0);
    expect(await thrown).toMatchObject({ message: 'listener failed' });
  });
});
