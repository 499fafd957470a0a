import { describe, expect, it } from 'vitest';
import { formatProgress } from '../../../src/report/index.js';

describe('a running trial’s progress line', () => {
  it('says attempts done of planned, the verdict tally, the rule, and which arms the rule stopped', () => {
    const line = formatProgress({
      trial: 'refuses the trap',
      rule: 'curtail n=20',
      arms: [
        { arm: 'case', done: 14, planned: 20, verdicts: { PASS: 14 }, stopped: 'pass' },
        { arm: 'control', done: 9, planned: 20, verdicts: { PASS: 6, FAIL: 2, UNKNOWN: 1 }, stopped: null },
      ],
    });
    expect(line).toBe(
      'trial "refuses the trap": 23/40 attempts · 20 PASS · 2 FAIL · 1 UNKNOWN · curtail n=20 · case stopped: pass after 14',
    );
  });
});
