import { describe, expect, it } from 'vitest';
import { suiteRuleFindings } from '../../../src/evaluate/suite-rule-findings.js';
import type { CheckMissingVerdicts, DecidedSuiteCheck, SuiteRuleDecision } from '../../../src/model/index.js';

const missing = (extra: Partial<CheckMissingVerdicts>): CheckMissingVerdicts => ({
  policy: 'bound',
  attempts: 430,
  cases: 430,
  valueIfPassing: 1,
  ifFailing: 'FAIL',
  ifPassing: 'PASS',
  ...extra,
});
const unsettled = (withoutVerdict: CheckMissingVerdicts | null, cases = 500): DecidedSuiteCheck => ({
  condition: 0,
  rate: 'correctRefusal',
  group: null,
  bound: 'atLeast',
  threshold: 0.9,
  value: 0.14,
  cases,
  interval: { lower: 0.11, upper: 1 },
  failInterval: { lower: 0.1, upper: 1 },
  decision: 'UNKNOWN',
  withoutVerdict,
});
const message = (check: DecidedSuiteCheck) => {
  const rule: SuiteRuleDecision = {
    conditions: [{ rate: 'correctRefusal', atLeast: 0.9, atMost: null, groups: null }],
    confidence: 0.95,
    failConfidence: 0.95,
    checks: [check],
    verdict: 'UNKNOWN',
  };
  const [finding] = suiteRuleFindings(rule);
  expect(finding).toMatchObject({ owner: 'harness', kind: 'suite-rule-unsettled' });
  return finding?.message.slice(0, finding.message.indexOf(': correct refusal'));
};

describe('an unsettled check’s finding says what could settle it', () => {
  it('rows without a verdict that swing it: verdicts for them, not more cases', () => {
    expect(message(unsettled(missing({})))).toBe(
      'not settled: its 430 attempts without a verdict swing it; verdicts for them could settle it',
    );
  });

  it('rows without a verdict in an interval that straddles either way: verdicts for them, or more cases', () => {
    expect(message(unsettled(missing({ ifFailing: 'UNKNOWN', ifPassing: 'UNKNOWN' }), 40))).toBe(
      'not settled by 40 cases; verdicts for its 430 attempts without one, or more cases, could settle it',
    );
    expect(message(unsettled(missing({ policy: 'exclude', ifFailing: null, ifPassing: null }), 70))).toBe(
      'not settled by 70 cases; verdicts for its 430 attempts without one, or more cases, could settle it',
    );
  });

  it('every row judged, or a record that did not count them: more cases', () => {
    expect(message(unsettled(missing({ attempts: 0, cases: 0 }), 1))).toBe(
      'not settled by 1 case; more cases could settle it',
    );
    expect(message(unsettled(null, 40))).toBe('not settled by 40 cases; more cases could settle it');
  });
});
