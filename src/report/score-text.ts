import type { ArmSummary, ScoreSummary } from '../model/index.js';

const n = (x: number) => x.toFixed(2);

/** Who gave the scores: the criterion, and the evaluator when one did. */
export function scoreSubject(row: ScoreSummary): string {
  return row.evaluator === null ? row.criterion : `${row.criterion} (${row.evaluator})`;
}

/**
 * One scored criterion of one arm in words: "mean 0.78 [0.52, 0.93] over 4 scored, 1 unscored; median 0.80, quartiles
 * 0.65–0.93; 3/4 ≥ cutoff 0.7". The interval is the betting interval (valid at any n for scores in [0, 1]).
 */
export function scoreText(row: ScoreSummary): string {
  const unscored = row.unscored > 0 ? `, ${row.unscored} unscored` : '';
  if (row.mean === null || row.quantiles === null)
    return `no scores (${row.unscored} unscored attempt${row.unscored === 1 ? '' : 's'}); cutoff ${row.cutoff}`;
  const interval = row.interval
    ? ` [${n(row.interval.lower)}, ${n(row.interval.upper)}] (${Math.round(row.interval.confidence * 100)}%)`
    : '';
  const q = row.quantiles;
  const trust = row.trusted ? '' : '; from an untrusted judge';
  return `mean ${n(row.mean)}${interval} over ${row.scored} scored${unscored}; median ${n(q.median)}, quartiles ${n(q.p25)}–${n(q.p75)}, range ${n(q.min)}–${n(q.max)}; ${row.atCutoff}/${row.scored} ≥ cutoff ${row.cutoff}${trust}`;
}

/** Each scored criterion of an arm as a label and its words (none for arms of an unscored Rubric or older records). */
export function armScoreLines(arm: ArmSummary): { label: string; text: string }[] {
  return (arm.scores ?? []).map((row) => ({ label: `score ${arm.arm} ${scoreSubject(row)}`, text: scoreText(row) }));
}
