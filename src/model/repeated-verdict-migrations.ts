/**
 * Outcome v4 change: a repeated suite's verdict under its declared pass^k rule (`suite.repeated.verdict`) keeps its
 * rule and verdict only; the sentence v3 stored beside them was written from the rule and the pass^k row of the same
 * table, so report/repeated-table renders the same words from them and the copy is dropped.
 */
import { isRecord, type StoredRecord } from './stored-record.js';

/** Outcome v4 change: `suite.repeated.verdict` without its stored `reason` sentence. */
export function repeatedVerdictAsData(outcome: StoredRecord): StoredRecord {
  const { suite } = outcome;
  if (!isRecord(suite) || !isRecord(suite.repeated) || !isRecord(suite.repeated.verdict)) return outcome;
  const { reason: _reason, ...verdict } = suite.repeated.verdict;
  return { ...outcome, suite: { ...suite, repeated: { ...suite.repeated, verdict } } };
}
