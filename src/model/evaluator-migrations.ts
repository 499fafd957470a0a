import { isRecord, type StoredRecord } from './stored-record.js';

/**
 * Evaluator `riddle.evaluator/1` → `/2`: `adjudicator` is always present (absent values are never omitted keys); a /1
 * record that omitted it was not an adjudicator.
 */
export function evaluatorV1toV2(evaluator: StoredRecord): StoredRecord {
  return { ...evaluator, schema: 'riddle.evaluator/2', adjudicator: evaluator.adjudicator ?? false };
}

/** riddle.outcome/3 embeds its Evaluator records as riddle.evaluator/2: those of a v2 Outcome are upgraded. */
export function evaluatorsAsV2(outcome: StoredRecord): StoredRecord {
  const records = outcome.records;
  if (!isRecord(records) || !Array.isArray(records.evaluators)) return outcome;
  const evaluators = records.evaluators.map((e) =>
    isRecord(e) && e.schema === 'riddle.evaluator/1' ? evaluatorV1toV2(e) : e,
  );
  return { ...outcome, records: { ...records, evaluators } };
}
