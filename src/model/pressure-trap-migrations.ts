/**
 * Upgrade steps for the records the trap groups changed (see migrations.ts for the conventions): Case 1 → 2 and
 * TrialSuite 1 → 2 (its Cases) add `trap`, and the Outcome v3 step adds the trap measures. Records written before
 * them had no trap group, so every value they add is null or empty.
 */
import { eachOf, isRecord, type StoredRecord } from './stored-record.js';

/** Case `riddle.case/1` → `riddle.case/2`: no Case belonged to a trap group. */
export function caseV1toV2(data: StoredRecord): StoredRecord {
  return { ...data, schema: 'riddle.case/2', trap: null };
}

/** TrialSuite `riddle.trial-suite/1` → `riddle.trial-suite/2`: its arms' Cases upgraded. */
export function trialSuiteV1toV2(data: StoredRecord): StoredRecord {
  return {
    ...data,
    schema: 'riddle.trial-suite/2',
    arms: eachOf(data.arms, (arm) => ({ ...arm, case: isRecord(arm.case) ? caseV1toV2(arm.case) : arm.case })),
  };
}

/**
 * Outcome v3 change: the pinned suite and its Cases carry `trap` (null), each attempt's pressure record its trap
 * measures (null), and the Outcome its trap group summaries (none).
 */
export function noTrapGroups(outcome: StoredRecord): StoredRecord {
  const records = outcome.records;
  return {
    ...outcome,
    records: isRecord(records)
      ? { ...records, suite: isRecord(records.suite) ? trialSuiteV1toV2(records.suite) : records.suite }
      : records,
    attempts: eachOf(outcome.attempts, (attempt) => ({
      ...attempt,
      pressure: isRecord(attempt.pressure) ? { ...attempt.pressure, trap: null } : attempt.pressure,
    })),
    traps: [],
  };
}
