import { SCORE_BINS, type AttemptRecord, type Criterion, type Rubric, type ScoreSummary } from '../model/index.js';
import { boundedMeanInterval, quantileSorted, unitHistogram } from '../statistics/index.js';

/** Two-sided confidence of the mean's interval, as for the arm's descriptive Wilson interval. */
const CONFIDENCE = 0.95;

function summarize(
  criterion: Criterion & { score: { cutoff: number } },
  evaluator: string | null,
  attempts: readonly AttemptRecord[],
): ScoreSummary {
  // Attempts in the order run: the interval's bets use only the scores before each one.
  const ordered = [...attempts].sort((a, b) => a.sequence - b.sequence);
  const findings = ordered.flatMap((attempt) =>
    attempt.findings.filter((f) => f.criterion === criterion.name && f.evaluator === evaluator && f.score !== null),
  );
  const scores = findings.map((f) => f.score ?? 0);
  const { cutoff } = criterion.score;
  const base = {
    criterion: criterion.name,
    evaluator,
    cutoff,
    scored: scores.length,
    unscored: attempts.length - scores.length,
    histogram: unitHistogram(scores, SCORE_BINS),
    trusted: findings.every((f) => f.trusted),
  };
  if (scores.length === 0) return { ...base, atCutoff: 0, mean: null, interval: null, quantiles: null };
  const { mean, lower, upper } = boundedMeanInterval(scores, 1 - CONFIDENCE);
  const sorted = [...scores].sort((a, b) => a - b);
  return {
    ...base,
    atCutoff: findings.filter((f) => f.result === 'met').length,
    mean,
    interval: { lower, upper, confidence: CONFIDENCE, method: 'betting' },
    quantiles: {
      min: sorted[0] ?? 0,
      p25: quantileSorted(sorted, 0.25),
      median: quantileSorted(sorted, 0.5),
      p75: quantileSorted(sorted, 0.75),
      max: sorted.at(-1) ?? 0,
    },
  };
}

/**
 * The score distributions of one arm: for each scored criterion of the Rubric, one row per evaluator that scored it
 * in this arm (one row with no evaluator when none did, so an arm whose scorer always failed still shows its
 * unscored attempts). Each attempt's own score is on its finding; these rows only summarise them.
 */
export function armScores(rubric: Rubric, attempts: readonly AttemptRecord[]): ScoreSummary[] {
  return rubric.criteria.flatMap((criterion) => {
    const { score } = criterion;
    if (score === null) return [];
    const scored = { ...criterion, score };
    const evaluators = [
      ...new Set(
        attempts.flatMap((a) =>
          a.findings.filter((f) => f.criterion === criterion.name && f.score !== null).map((f) => f.evaluator),
        ),
      ),
    ].sort();
    if (evaluators.length === 0) return [summarize(scored, null, attempts)];
    return evaluators.map((evaluator) => summarize(scored, evaluator, attempts));
  });
}
