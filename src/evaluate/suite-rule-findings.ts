import { describeSuiteCheck, type FindingOwner, type SuiteRuleCheck, type SuiteRuleDecision } from '../model/index.js';

/** What a suite rule's finding is about (its check: condition, rate, group), never its figures. */
export const suiteRuleCheckKey = (check: SuiteRuleCheck) =>
  `${check.condition}\u0000${check.rate}\u0000${check.group ?? ''}`;

/** A finding's parts before the router makes it a record. */
export interface SuiteRuleFinding {
  owner: FindingOwner;
  kind: string;
  message: string;
  about: string;
}

/** Checks of one decision past this many are reported once, with the count and the first (the reports list all). */
const MAX_CHECK_FINDINGS = 3;

/**
 * The findings of a suite decided by its rule, in place of its rows' verdicts (one attempt per row decides no row):
 * failed checks are the subject's, unsettled ones the harness's (too few cases to settle them).
 */
export function suiteRuleFindings(rule: SuiteRuleDecision): SuiteRuleFinding[] {
  const of = (
    decision: 'FAIL' | 'UNKNOWN',
    owner: FindingOwner,
    kind: string,
    text: (check: SuiteRuleCheck) => string,
  ) => {
    const checks = rule.checks.filter((c) => c.decision === decision);
    const first = checks[0];
    if (first === undefined) return [];
    if (checks.length <= MAX_CHECK_FINDINGS)
      return checks.map((check) => ({ owner, kind, message: text(check), about: suiteRuleCheckKey(check) }));
    return [
      {
        owner,
        kind,
        message: `${checks.length} of ${rule.checks.length} suite rule checks ${decision}; the first: ${text(first)}`,
        about: `checks ${decision}`,
      },
    ];
  };
  return [
    ...of('FAIL', 'subject', 'suite-rule', (check) => describeSuiteCheck(check, rule)),
    ...of(
      'UNKNOWN',
      'harness',
      'suite-rule-unsettled',
      (check) => `not settled by ${check.cases} cases: ${describeSuiteCheck(check, rule)}`,
    ),
  ];
}
