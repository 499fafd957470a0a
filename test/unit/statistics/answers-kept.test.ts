import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswersKept } from '../../../src/statistics/answers-kept.js';
import { attemptsToSettle, clopperPearson } from '../../../src/statistics/index.js';

/** Beta-tail solves and verdicts computed, counted through the modules the kept answers stand in for. */
const computed = vi.hoisted(() => ({ solves: 0, verdicts: 0 }));

vi.mock('../../../src/statistics/beta-quantile.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/statistics/beta-quantile.js')>();
  return {
    ...actual,
    solveLowerBetaTail: (...args: Parameters<typeof actual.solveLowerBetaTail>) => {
      computed.solves += 1;
      return actual.solveLowerBetaTail(...args);
    },
  };
});

vi.mock('../../../src/statistics/binomial-verdict.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/statistics/binomial-verdict.js')>();
  return {
    ...actual,
    binomialVerdict: (...args: Parameters<typeof actual.binomialVerdict>) => {
      computed.verdicts += 1;
      return actual.binomialVerdict(...args);
    },
  };
});

beforeEach(() => {
  computed.solves = 0;
  computed.verdicts = 0;
});

describe('answers kept per process', () => {
  it('answer the same interval and attempts to settle again without solving again', () => {
    const interval = clopperPearson(1, 1, { alpha: 0.05, sided: 'one' });
    const solves = computed.solves;
    expect(solves).toBeGreaterThan(0);
    expect(clopperPearson(1, 1, { alpha: 0.05, sided: 'one' })).toEqual(interval);
    expect(computed.solves).toBe(solves);
    // Another question is solved afresh.
    expect(clopperPearson(1, 2, { alpha: 0.05, sided: 'one' }).lower).toBeLessThan(interval.lower);
    expect(computed.solves).toBeGreaterThan(solves);

    const settle = attemptsToSettle(1, 1, 0.8, 0.05);
    const verdicts = computed.verdicts;
    expect(verdicts).toBeGreaterThan(10);
    expect(settle).toEqual({ toPass: 13, toFail: expect.any(Number) });
    expect(attemptsToSettle(1, 1, 0.8, 0.05)).toEqual(settle);
    expect(computed.verdicts).toBe(verdicts);
  });

  it('hand each caller its own copy, so a changed answer changes no later one', () => {
    const first = clopperPearson(3, 7);
    first.lower = -1;
    expect(clopperPearson(3, 7).lower).toBeGreaterThan(0);
    const settle = attemptsToSettle(2, 3, 0.9);
    settle.toPass = -1;
    expect(attemptsToSettle(2, 3, 0.9).toPass).toBeGreaterThan(0);
  });

  it('keep what the function reports: mistakes still throw, a string never stands for a number', () => {
    expect(() => attemptsToSettle(2, 1, 0.8)).toThrow();
    expect(() => attemptsToSettle(2, 1, 0.8)).toThrow();
    const kept = new AnswersKept<{ value: string }>();
    const answer = vi.fn((value: string) => ({ value }));
    expect(kept.get([0.05], () => answer('number'))).toEqual({ value: 'number' });
    expect(kept.get(['0.05'], () => answer('string'))).toEqual({ value: 'string' });
    expect(kept.get([0.05], () => answer('again'))).toEqual({ value: 'number' });
    // An argument that is not a number, a string or undefined is never looked up.
    expect(kept.get([{ alpha: 0.05 }], () => answer('object'))).toEqual({ value: 'object' });
    expect(kept.get([{ alpha: 0.05 }], () => answer('object again'))).toEqual({ value: 'object again' });
    expect(kept.size).toBe(2);
    const failing = () => {
      throw new Error('bad question');
    };
    expect(() => kept.get([1], failing)).toThrow('bad question');
    expect(kept.size).toBe(2);
  });

  it('hold at most the answers they were given room for', () => {
    const kept = new AnswersKept<{ n: number }>(3);
    for (let n = 0; n < 10; n += 1) kept.get([n], () => ({ n }));
    expect(kept.size).toBeLessThanOrEqual(3);
    expect(kept.get([9], () => ({ n: -1 }))).toEqual({ n: 9 });
  });
});
