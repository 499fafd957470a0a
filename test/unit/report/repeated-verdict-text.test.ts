import { describe, expect, it } from 'vitest';
import type { PassHatKRow } from '../../../src/model/index.js';
import { repeatedVerdictAsData } from '../../../src/model/repeated-verdict-migrations.js';
import { repeatedVerdictText } from '../../../src/report/repeated-table.js';

const row = (k: number, value: number | null, lower: number | null, upper: number | null): PassHatKRow => ({
  k,
  cases: 10,
  value,
  lower,
  upper,
  method: lower === null ? null : 'korn-graubard',
  withoutVerdict: null,
});
const rows = [row(1, 0.9, 0.8, 0.95), row(2, 0.81, 0.7, 0.9), row(3, 0.7, 0.55, 0.85), row(4, null, null, null)];

describe('a repeated suite’s verdict under its pass^k rule, in words (golden strings)', () => {
  it('reads the row of the rule’s k against its threshold', () => {
    expect(repeatedVerdictText({ rule: { k: 1, atLeast: 0.75 }, verdict: 'PASS' }, rows)).toBe(
      'pass^1 = 0.900 [0.800, 0.950]: its lower bound reaches 0.75',
    );
    expect(repeatedVerdictText({ rule: { k: 2, atLeast: 0.95 }, verdict: 'FAIL' }, rows)).toBe(
      'pass^2 = 0.810 [0.700, 0.900]: its upper bound is below 0.95',
    );
    expect(repeatedVerdictText({ rule: { k: 3, atLeast: 0.6 }, verdict: 'UNKNOWN' }, rows)).toBe(
      'pass^3 = 0.700 [0.550, 0.850] straddles 0.6: more cases would settle it',
    );
    expect(repeatedVerdictText({ rule: { k: 4, atLeast: 0.5 }, verdict: 'UNKNOWN' }, rows)).toBe(
      'no case has 4 judged attempts, so pass^4 is unknown',
    );
    expect(repeatedVerdictText({ rule: { k: 8, atLeast: 0.5 }, verdict: 'UNKNOWN' }, rows)).toBe(
      'no case has 8 judged attempts, so pass^8 is unknown',
    );
  });

  it('drops the sentence a v3 Outcome stored beside the verdict (the Outcome v4 step), keeping rule and verdict', () => {
    const verdict = { rule: { k: 1, atLeast: 0.75 }, verdict: 'PASS' };
    const v3 = { suite: { repeated: { passHatK: rows, verdict: { ...verdict, reason: 'pass^1 = 0.900 …' } } } };
    expect(repeatedVerdictAsData(v3)).toEqual({ suite: { repeated: { passHatK: rows, verdict } } });
    expect(repeatedVerdictAsData({ suite: null })).toEqual({ suite: null });
  });
});
