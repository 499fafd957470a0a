import { describe, expect, it } from 'vitest';
import type { DecidedSuiteCheck, SuiteRuleDecision } from '../../../src/model/index.js';
import { suiteRuleReasonText } from '../../../src/report/reasons.js';
import { suiteRuleHeadline, suiteRuleLines, suiteRuleMarkdown } from '../../../src/report/suite-rule-text.js';

const check = (extra: Partial<DecidedSuiteCheck> = {}): DecidedSuiteCheck => ({
  condition: 0,
  rate: 'correctRefusal',
  group: null,
  bound: 'atLeast',
  threshold: 0.9,
  value: 0.14,
  cases: 500,
  interval: { lower: 0.11, upper: 1 },
  failInterval: { lower: 0.1, upper: 1 },
  decision: 'UNKNOWN',
  withoutVerdict: {
    policy: 'bound',
    attempts: 430,
    cases: 430,
    valueIfPassing: 1,
    ifFailing: 'FAIL',
    ifPassing: 'PASS',
  },
  ...extra,
});
const rule = (checks: DecidedSuiteCheck[]): SuiteRuleDecision => ({
  conditions: [{ rate: 'correctRefusal', atLeast: 0.9, atMost: null, groups: null }],
  confidence: 0.95,
  failConfidence: 1 - 0.05 / checks.length,
  checks,
  verdict: 'UNKNOWN',
});

describe('a suite rule in words (golden strings)', () => {
  it('one check: "check", singular, and what FAIL needs without "it … it"', () => {
    expect(suiteRuleHeadline(rule([check({ withoutVerdict: null })]))).toBe(
      "UNKNOWN — 0 PASS, 0 FAIL, 1 UNKNOWN of 1 check (PASS needs the check's 95% case-clustered interval on the allowed side of its threshold, FAIL that interval wholly on the wrong side)",
    );
    expect(suiteRuleReasonText(rule([check({ withoutVerdict: null, cases: 1 })]))).toBe(
      'suite rule UNKNOWN (0 PASS, 0 FAIL, 1 UNKNOWN of 1 check): correct refusal ≥ 0.9: 0.140, 95% interval [0.110, 1.000] over 1 case: UNKNOWN',
    );
  });

  it('several checks: Bonferroni named, and how attempts without a verdict were held', () => {
    expect(suiteRuleHeadline(rule([check(), check({ condition: 1 })]))).toBe(
      "UNKNOWN — 0 PASS, 0 FAIL, 2 UNKNOWN of 2 checks (PASS needs every check's 95% case-clustered interval on the allowed side of its threshold, FAIL one check's 97.5% interval (Bonferroni over 2 checks) wholly on the wrong side; any FAIL fails the suite; attempts without a verdict are held as failing and as passing, and a decision stands only when both agree)",
    );
  });

  it('every line and table row says how many attempts lacked a verdict, and what the policy did with them', () => {
    const bound = rule([check()]);
    expect(suiteRuleLines(bound)[1]?.text).toBe(
      'correct refusal ≥ 0.9: 0.140 [0.110, 1.000], 500 cases, 430 attempts without a verdict (in 430 cases) held as failing and as passing (FAIL if they fail, PASS if they pass)',
    );
    const excluded = rule([
      check({
        decision: 'PASS',
        withoutVerdict: {
          policy: 'exclude',
          attempts: 430,
          cases: 430,
          valueIfPassing: null,
          ifFailing: null,
          ifPassing: null,
        },
      }),
    ]);
    expect(suiteRuleMarkdown(excluded).at(-1)).toBe(
      '| correct refusal ≥ 0.9 | 0.140 | [0.110, 1.000] | [0.100, 1.000] | 500 | 430 in 430 cases excluded | PASS |',
    );
    // A record written before riddle.outcome/5 did not count them.
    expect(suiteRuleMarkdown(rule([check({ withoutVerdict: null })])).at(-1)).toContain('| 500 | — | UNKNOWN |');
  });
});

describe('a suite rule with a check per matched group', () => {
  // 500 per-group checks: two FAIL, three UNKNOWN, the rest PASS, the deciding ones last in declaration order.
  const checks = Array.from({ length: 500 }, (_, i) =>
    check({
      group: `g${i}`,
      withoutVerdict: null,
      decision: i >= 498 ? 'FAIL' : i >= 495 ? 'UNKNOWN' : 'PASS',
    }),
  );
  const perGroup = { ...rule(checks), verdict: 'FAIL' as const };

  it('summary.md lists the checks that decide the verdict first, at most 8, and counts the rest', () => {
    const lines = suiteRuleMarkdown(perGroup);
    const rows = lines.filter((l) => l.startsWith('| correct refusal'));
    expect(rows).toHaveLength(8);
    expect(rows.map((r) => r.split(' | ').at(-1))).toEqual([
      'FAIL |',
      'FAIL |',
      'UNKNOWN |',
      'UNKNOWN |',
      'UNKNOWN |',
      'PASS |',
      'PASS |',
      'PASS |',
    ]);
    expect(rows[0]).toContain('correct refusal in g498 ≥ 0.9');
    expect(lines.at(-1)).toBe("_and 492 more checks (492 PASS); every check is in the run's HTML report_");
  });

  it('the terminal lists the same checks and counts the rest alike', () => {
    const lines = suiteRuleLines(perGroup);
    expect(lines.map((l) => l.label)).toEqual([
      'suite rule',
      'FAIL',
      'FAIL',
      'UNKNOWN',
      'UNKNOWN',
      'UNKNOWN',
      'PASS',
      'PASS',
      'PASS',
      'and',
    ]);
    // Read as one line in the terminal: "and 492 more checks …", not "suite rule and 492 more checks".
    expect(lines.at(-1)?.text).toBe("492 more checks (492 PASS); every check is in the run's HTML report");
  });
});
