import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, resolveTrial, testTimeoutMs, trialBudgetMs } from '../../../src/run/index.js';

describe('trial budget and the test timeout', () => {
  it('adds every wave of attempts, the stop grace per attempt and the trial overhead', () => {
    expect(trialBudgetMs({ attemptMs: 1_000, rounds: 2, waves: 3 })).toBe((2_000 + 7_000) * 3 + 10_000);
  });

  it('keeps a budget the timer can hold, and lifts the timeout of one it cannot (n = 100,000 at 30 s)', () => {
    expect(testTimeoutMs(MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
    const huge = trialBudgetMs({ attemptMs: 30_000, rounds: 1, waves: 100_000 });
    expect(huge).toBeGreaterThan(MAX_TIMER_MS);
    expect(testTimeoutMs(huge)).toBe(Number.POSITIVE_INFINITY);
  });

  it('refuses an attempt budget past the longest timer, naming the field', () => {
    const site = { name: 'too long', file: 'x.test.ts', path: [] };
    const declaration = {
      subject: () => 'ok',
      rubric: { criteria: { ok: { description: 'ok', needs: 'text' as const } } },
      checks: { ok: () => {} },
      case: { input: 'x', expect: ['ok'] },
      budget: { attemptMs: MAX_TIMER_MS + 1 },
    };
    expect(() => resolveTrial(site, declaration, { passOn: null, sealSalt: '' })).toThrow(/budget\.attemptMs.*at most/);
  });
});
