import {
  type DecidedSuiteCheck,
  describeSuiteCheck,
  type FindingOwner,
  type SuiteRuleCheck,
  type SuiteRuleDecision,
} from '../model/index.js';

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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What could settle an unsettled check, read from its data: more cases; verdicts for the attempts without one when,
 * held as failing and as passing, they decide it both ways; either, when they widen an interval that straddles anyway.
 */
function unsettledBy(check: DecidedSuiteCheck): string {
  const missing = check.withoutVerdict;
  if (missing === null || missing.attempts === 0)
    return `not settled by ${plural(check.cases, 'case')}; more cases could settle it`;
  const attempts = plural(missing.attempts, 'attempt');
  const swung =
    missing.ifFailing !== null &&
    missing.ifPassing !== null &&
    missing.ifFailing !== 'UNKNOWN' &&
    missing.ifPassing !== 'UNKNOWN' &&
    missing.ifFailing !== missing.ifPassing;
  if (swung) return `not settled: its ${attempts} without a verdict swing it; verdicts for them could settle it`;
  return `not settled by ${plural(check.cases, 'case')}; verdicts for its ${attempts} without one, or more cases, could settle it`;
}

/**
 * The findings of a suite decided by its rule, in place of its rows' verdicts (one attempt per row decides no row):
 * failed checks are the subject's, unsettled ones the harness's (too few cases, or too few verdicts, to settle them).
 */
export function suiteRuleFindings(rule: SuiteRuleDecision): SuiteRuleFinding[] {
  const of = (
    decision: 'FAIL' | 'UNKNOWN',
    owner: FindingOwner,
    kind: string,
    text: (check: DecidedSuiteCheck) => string,
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
      (check) => `${unsettledBy(check)}: ${describeSuiteCheck(check, rule)}`,
    ),
  ];
}
