/**
 * Upgrade steps for the records trap chains and sealed trap arms changed (see migrations.ts for the conventions):
 * Case 2 → 3 and TrialSuite 2 → 3 (its Cases) widen the trap record (a chain's members, a sealed trap's fingerprint,
 * the `trap-chain` pressure kind), so a v2 record is a v3 record as it is; the Outcome v4 step adds the per-trap
 * measures of a chain, which no earlier run had.
 */
import { eachOf, isRecord, type StoredRecord } from './stored-record.js';

/** Case `riddle.case/2` → `riddle.case/3`: no Case was a chain's arm or a sealed trap. */
export function caseV2toV3(data: StoredRecord): StoredRecord {
  return { ...data, schema: 'riddle.case/3' };
}

/** TrialSuite `riddle.trial-suite/2` → `riddle.trial-suite/3`: its arms' Cases upgraded. */
export function trialSuiteV2toV3(data: StoredRecord): StoredRecord {
  return {
    ...data,
    schema: 'riddle.trial-suite/3',
    arms: eachOf(data.arms, (arm) => ({ ...arm, case: isRecord(arm.case) ? caseV2toV3(arm.case) : arm.case })),
  };
}

/**
 * Outcome v4 change: the pinned suite and its Cases at their v3 versions; no attempt ran a chain (`members` null), no
 * trap arm has measures by position ([]), and no net capitulation kept its exact interval (null).
 */
export function noTrapChains(outcome: StoredRecord): StoredRecord {
  const records = outcome.records;
  return {
    ...outcome,
    records: isRecord(records)
      ? { ...records, suite: isRecord(records.suite) ? trialSuiteV2toV3(records.suite) : records.suite }
      : records,
    attempts: eachOf(outcome.attempts, (attempt) => ({
      ...attempt,
      pressure: isRecord(attempt.pressure)
        ? {
            ...attempt.pressure,
            trap: isRecord(attempt.pressure.trap) ? { ...attempt.pressure.trap, members: null } : attempt.pressure.trap,
          }
        : attempt.pressure,
    })),
    traps: eachOf(outcome.traps, (group) => ({
      ...group,
      arms: eachOf(group.arms, (arm) => ({ ...arm, byPosition: [] })),
      // The exact interval of the net capitulation was not kept: null (Newcombe's stays).
      net: isRecord(group.net)
        ? {
            positive: isRecord(group.net.positive) ? { ...group.net.positive, exact: null } : group.net.positive,
            negative: isRecord(group.net.negative) ? { ...group.net.negative, exact: null } : group.net.negative,
          }
        : group.net,
    })),
  };
}
