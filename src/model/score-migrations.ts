/**
 * Upgrade steps for the records scored criteria changed (see migrations.ts for the conventions): Rubric 1 → 2 adds
 * each criterion's `score`, and the Outcome v3 step adds each finding's `score` and each arm's `scores`. No criterion
 * was scored before them, so every criterion and finding gets null; the arms' distributions were not kept: null.
 */
import { eachOf, isRecord, type StoredRecord } from './stored-record.js';

/** Rubric `riddle.rubric/1` → `riddle.rubric/2`: no criterion was scored. */
export function rubricV1toV2(data: StoredRecord): StoredRecord {
  return { ...data, schema: 'riddle.rubric/2', criteria: eachOf(data.criteria, (c) => ({ ...c, score: null })) };
}

/**
 * Outcome v3 change: the embedded Rubric upgraded to v2, every finding without a score, and no arm's score
 * distribution kept.
 */
export function noScores(outcome: StoredRecord): StoredRecord {
  const records = outcome.records;
  return {
    ...outcome,
    records:
      isRecord(records) && isRecord(records.rubric) && records.rubric.schema === 'riddle.rubric/1'
        ? { ...records, rubric: rubricV1toV2(records.rubric) }
        : records,
    attempts: eachOf(outcome.attempts, (attempt) => ({
      ...attempt,
      findings: eachOf(attempt.findings, (finding) => ({ ...finding, score: null })),
    })),
    arms: eachOf(outcome.arms, (arm) => ({ ...arm, scores: null })),
  };
}
