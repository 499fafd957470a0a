/**
 * Outcome v5 change: the suite tables' refusal rates (`suite.refusal`, `suite.pairs`) follow the Rubric's
 * missing-evidence policy for attempts without a refusal verdict, as the suite rule does, and count them
 * (`withoutVerdict`). v4 tabulated the judged attempts only and did not count the others per rate, so a v4 record has
 * nothing to fill the count from: null. Its rates stay as written; `riddle rejudge` tabulates them anew under v5.
 */
import { eachOf, type StoredRecord, within } from './stored-record.js';

const uncounted = (item: StoredRecord): StoredRecord => ({ ...item, withoutVerdict: null });

/** Outcome v5 change: `suite.refusal.withoutVerdict` and `suite.pairs[].withoutVerdict` null. */
export function refusalTablesUncounted(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    suite: within(outcome.suite, (suite) => ({
      ...suite,
      refusal: within(suite.refusal, uncounted),
      pairs: eachOf(suite.pairs, uncounted),
    })),
  };
}
