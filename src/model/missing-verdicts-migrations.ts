/**
 * Outcome v5 change: a suite rule's checks and the rows of the pass^k table follow the Rubric's missing-evidence
 * policy for attempts without a verdict, and count them (`withoutVerdict`). v4 left those attempts out of every
 * rate whatever the policy and did not count them, so a v4 record has nothing to fill the count from: null. Its
 * verdicts stay as written (decided on the judged rows only); `riddle rejudge` decides them anew under v5.
 */
import { eachOf, type StoredRecord, within } from './stored-record.js';

const uncounted = (item: StoredRecord): StoredRecord => ({ ...item, withoutVerdict: null });

/** Outcome v5 change: `suiteRule.checks[].withoutVerdict` and `suite.repeated.passHatK[].withoutVerdict` null. */
export function missingVerdictsUncounted(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    suiteRule: within(outcome.suiteRule, (rule) => ({ ...rule, checks: eachOf(rule.checks, uncounted) })),
    suite: within(outcome.suite, (suite) => ({
      ...suite,
      repeated: within(suite.repeated, (repeated) => ({ ...repeated, passHatK: eachOf(repeated.passHatK, uncounted) })),
    })),
  };
}
