import { clopperPearson } from './clopper-pearson.js';
import type { Confusion, ConfusionCounts, IntervalOptions, SensitivitySpecificity } from './types.js';
import { assertInteger } from './validate.js';

/**
 * Counts a judge's verdicts against labelled controls: `labels[i]` is the truth (true = positive),
 * `verdicts[i]` the judge's call, or null when it gave none. A missing verdict is counted as unjudged,
 * never as an error.
 */
export function confusion(labels: readonly boolean[], verdicts: readonly (boolean | null)[]): Confusion {
  if (labels.length !== verdicts.length) {
    throw new RangeError(
      `confusion: labels and verdicts must pair up control by control (got ${labels.length} and ${verdicts.length})`,
    );
  }
  const counts: Confusion = { tp: 0, fn: 0, tn: 0, fp: 0, unjudged: 0 };
  labels.forEach((label, i) => {
    const verdict = verdicts[i];
    if (verdict === null || verdict === undefined) counts.unjudged++;
    else if (label) counts[verdict ? 'tp' : 'fn']++;
    else counts[verdict ? 'fp' : 'tn']++;
  });
  return counts;
}

/**
 * Sensitivity TP/(TP + FN) and specificity TN/(TN + FP) of a judge, each with its exact Clopper–Pearson
 * interval (default two-sided 95%; pass `{ sided: 'one' }` for the lower bounds a trust decision
 * compares with a floor). A rate with no control of its kind has value NaN and interval [0, 1].
 * Altman & Bland (1994), BMJ 308:1552; Clopper & Pearson (1934).
 */
export function sensitivitySpecificity(counts: ConfusionCounts, opts?: IntervalOptions): SensitivitySpecificity {
  const { tp, fn, tn, fp } = counts;
  for (const [name, value] of [
    ['tp', tp],
    ['fn', fn],
    ['tn', tn],
    ['fp', fp],
  ] as const) {
    assertInteger('sensitivitySpecificity', name, value, 0);
  }
  const sensitivity = clopperPearson(tp, tp + fn, opts);
  const specificity = clopperPearson(tn, tn + fp, opts);
  return {
    sensitivity: { value: tp / (tp + fn), lower: sensitivity.lower, upper: sensitivity.upper, tp, fn },
    specificity: { value: tn / (tn + fp), lower: specificity.lower, upper: specificity.upper, tn, fp },
  };
}
