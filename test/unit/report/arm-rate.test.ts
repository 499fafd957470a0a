import { describe, expect, it } from 'vitest';
import { summarizeArm } from '../../../src/aggregate/index.js';
import { fingerprint, type AttemptRecord } from '../../../src/model/index.js';
import { armRate, armReasonText } from '../../../src/report/index.js';
import { aCase, aRubric, attempt } from '../builders.js';

const c = aCase();
const arm = { id: 'case', role: 'case' as const, group: null, case: c, caseFingerprint: fingerprint(c) };
const summarize = (list: AttemptRecord[], rubric = aRubric()) => {
  const decided = summarizeArm({
    arm,
    attempts: list,
    rubric,
    planned: list.length,
    notRun: { count: 0, reason: '' },
    cutShort: 0,
    sequential: null,
  });
  return { ...decided, reason: armReasonText(decided.why) };
};
const passes = (n: number) => Array.from({ length: n }, (_, i) => attempt('case', i, 'PASS'));
const errors = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => attempt('case', from + i, 'UNKNOWN', { status: 'subject_error' }));

describe('an arm rate as people read it has the decision’s denominator', () => {
  it('7 passes and 3 subject errors read 7/10, the errors counted visibly', () => {
    const text = armRate(summarize([...passes(7), ...errors(7, 3)]));
    expect(text).toMatch(/^7\/10 = 0\.70 \[0\.\d\d, 0\.\d\d\]/);
    expect(text).toContain('3 without a verdict counted as not passing');
    expect(text).not.toContain('7/7');
  });

  it('under `exclude` the exclusion is shown where the rate is: 14/14, 6 subject_error excluded', () => {
    const text = armRate(summarize([...passes(14), ...errors(14, 6)], aRubric({ missingEvidence: 'exclude' })));
    expect(text).toMatch(/^14\/14 = 1\.00 /);
    expect(text).toContain('6 subject_error excluded');
  });

  it('names the required-criteria share beside a PARTIAL arm’s full passes', () => {
    const partial = Array.from({ length: 14 }, (_, i) => attempt('case', i, 'PARTIAL'));
    expect(armRate(summarize(partial))).toContain('14/14 met every required criterion');
  });
});
