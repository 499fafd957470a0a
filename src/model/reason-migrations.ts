import { isRecord, type StoredRecord } from './stored-record.js';

/**
 * riddle.outcome/3 keeps each arm's reason as data (`why`) beside its sentence. Outcomes written before kept only the
 * sentence: their `why` is null (not recorded), the sentence stays as written.
 */
export function noArmReasons(outcome: StoredRecord): StoredRecord {
  if (!Array.isArray(outcome.arms)) return outcome;
  return { ...outcome, arms: outcome.arms.map((arm) => (isRecord(arm) ? { why: null, ...arm } : arm)) };
}
