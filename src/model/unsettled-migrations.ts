/**
 * Outcome v4 change: a matched-control judgment's `unsettled` is data (model/outcome.ts UnsettledReading), rendered
 * in report/reasons.ts, where v3 stored the rendered sentence. v3 wrote that sentence from one template filled with
 * exactly these numbers, so it is read back into them: the v4 record says what the v3 one said, and renders to the
 * same words. A sentence not of that template is left as it was, and reading the record then fails at
 * `judgment.matchedControl.unsettled` rather than guessing.
 */
import { isRecord, type StoredRecord } from './stored-record.js';

const READINGS: Record<string, string> = {
  'over-refusal': 'overRefusal',
  'under-refusal': 'underRefusal',
  'telling the case from its controls': 'toldApart',
};

const SENTENCE =
  /^not settled: the point rates suggest (.+), but on (\d+) case and (\d+) control attempts the intervals do not support it; (?:about (\d+) judged attempts per side at these rates would settle it|no number of attempts at these rates would)$/;

/** The v3 sentence read back into its numbers, or the value as it was when it is not one. */
export function unsettledReading(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = SENTENCE.exec(value);
  if (!match) return value;
  const [, suggested = '', caseJudged, controlJudged, needed] = match;
  const readings = suggested.split(' and ').map((words) => READINGS[words]);
  if (readings.some((reading) => reading === undefined)) return value;
  return {
    suggested: readings,
    caseJudged: Number(caseJudged),
    controlJudged: Number(controlJudged),
    attemptsNeeded: needed === undefined ? null : Number(needed),
  };
}

/** Outcome v4 change: the matched-control judgment's `unsettled` sentence as the data it was written from. */
export function unsettledAsData(outcome: StoredRecord): StoredRecord {
  const { judgment } = outcome;
  if (!isRecord(judgment) || !isRecord(judgment.matchedControl)) return outcome;
  const matched = judgment.matchedControl;
  return {
    ...outcome,
    judgment: { ...judgment, matchedControl: { ...matched, unsettled: unsettledReading(matched.unsettled) } },
  };
}
