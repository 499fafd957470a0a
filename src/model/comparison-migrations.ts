/**
 * Comparison `riddle.comparison/2` → `/3`: each trial compares the declared suite rule's checks (`suiteRule`). A v2
 * comparison never read the rules, and its record keeps no check to fill them from: null, which /3 documents as
 * "not read" for records written before it (the Outcomes compared, if kept, give them: `riddle diff` them again).
 */
import { eachOf, type StoredRecord } from './stored-record.js';

/** Comparison v2 → v3: every trial's `suiteRule` null. */
export function comparisonV2toV3(comparison: StoredRecord): StoredRecord {
  return {
    ...comparison,
    schema: 'riddle.comparison/3',
    trials: eachOf(comparison.trials, (trial) => ({ ...trial, suiteRule: null })),
  };
}
