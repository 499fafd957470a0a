import { isRecord, type StoredRecord } from './stored-record.js';

/**
 * Outcome v4 change: each attempt keeps why it has its verdict as data (`why`) beside the sentence. Attempts written
 * before kept only the sentence: their `why` is null (not recorded), the sentence stays as written. Applies alike to
 * attempts held in the Outcome and to those read from its attempts file (read into the Outcome before migrating).
 */
export function noAttemptReasons(outcome: StoredRecord): StoredRecord {
  const { attempts } = outcome;
  if (!Array.isArray(attempts)) return outcome;
  return { ...outcome, attempts: attempts.map((item) => (isRecord(item) ? { ...item, why: null } : item)) };
}
