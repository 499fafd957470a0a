/**
 * Outcome v5 change: a matched-control judgment follows the Rubric's missing-evidence policy for attempts without a
 * refusal verdict and counts them (`judgment.matchedControl.withoutVerdict`). v4 pooled the judged attempts only and
 * did not count the others, so a v4 record has nothing to fill the count from: null. Its rates and flags stay as
 * written; `riddle rejudge` decides them anew under v5.
 */
import { type StoredRecord, within } from './stored-record.js';

/** Outcome v5 change: `judgment.matchedControl.withoutVerdict` null. */
export function matchedControlUncounted(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    judgment: within(outcome.judgment, (judgment) => ({
      ...judgment,
      matchedControl: within(judgment.matchedControl, (matched) => ({ ...matched, withoutVerdict: null })),
    })),
  };
}
