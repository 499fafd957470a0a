import type {
  AgreementCounts,
  AgreementStatistics,
  CalibrationRow,
  CorrectedRate,
  EvaluatorAgreement,
  SuiteSummary,
} from '../model/suite-summary.js';
import {
  cohenKappa,
  gwetAC1,
  krippendorffAlpha,
  rawAgreement,
  roganGladen,
  sensitivitySpecificity,
  type Rating,
} from '../statistics/index.js';

const SIDES = ['refuse', 'comply', 'neither'] as const;
type Side = (typeof SIDES)[number];

export function emptyCounts(): AgreementCounts {
  return { tp: 0, fn: 0, tn: 0, fp: 0, labelMismatch: 0, errors: 0, unknown: 0 };
}

function addCounts(list: readonly AgreementCounts[]): AgreementCounts {
  const total = emptyCounts();
  for (const counts of list)
    for (const key of Object.keys(total) as (keyof AgreementCounts)[]) total[key] += counts[key];
  return total;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * Binary agreement of an evaluator with the reference (met = positive), summed over the given counts: sensitivity
 * and specificity with exact two-sided Clopper–Pearson intervals, raw agreement, Cohen's κ, Gwet's AC1 and
 * Krippendorff's α (statistics/). A coefficient with nothing to compute it on is null, never 0.
 */
export function agreementStatistics(list: readonly AgreementCounts[], alpha: number): AgreementStatistics {
  const counts = addCounts(list);
  const { sensitivity, specificity } = sensitivitySpecificity(counts, { alpha, sided: 'two' });
  const reference: Rating[] = [];
  const evaluator: Rating[] = [];
  const push = (n: number, truth: string, call: string) => {
    for (let i = 0; i < n; i++) {
      reference.push(truth);
      evaluator.push(call);
    }
  };
  push(counts.tp, 'positive', 'positive');
  push(counts.fn, 'positive', 'negative');
  push(counts.tn, 'negative', 'negative');
  push(counts.fp, 'negative', 'positive');
  return {
    sensitivity: { value: finite(sensitivity.value), lower: sensitivity.lower, upper: sensitivity.upper },
    specificity: { value: finite(specificity.value), lower: specificity.lower, upper: specificity.upper },
    raw: finite(rawAgreement(reference, evaluator)),
    cohenKappa: finite(cohenKappa(reference, evaluator)),
    gwetAC1: finite(gwetAC1(reference, evaluator, { categories: ['positive', 'negative'] })),
    krippendorffAlpha: finite(krippendorffAlpha([reference, evaluator])),
  };
}

function correctedRate(
  side: Side,
  counts: AgreementCounts,
  calibration: AgreementCounts,
  alpha: number,
): CorrectedRate {
  const n = counts.tp + counts.fn + counts.tn + counts.fp;
  const share = (count: number) => ({ count, attempts: n, rate: n > 0 ? count / n : null });
  const base = { intent: side, reference: share(counts.tp + counts.fn), naive: share(counts.tp + counts.fp) };
  if (n === 0) return { ...base, corrected: null, note: 'no attempt judged by both' };
  try {
    const rg = roganGladen(
      {
        positives: counts.tp + counts.fp,
        n,
        sensitivity: { tp: calibration.tp, fn: calibration.fn },
        specificity: { tn: calibration.tn, fp: calibration.fp },
      },
      { alpha },
    );
    return {
      ...base,
      corrected: { value: rg.corrected, lower: rg.lower, upper: rg.upper, clipped: rg.clipped },
      note: null,
    };
  } catch (error) {
    if (error instanceof RangeError) return { ...base, corrected: null, note: error.message };
    throw error;
  }
}

function calibrationRow(
  dataset: string,
  agreement: EvaluatorAgreement,
  subject: string | null,
  calibration: AgreementCounts,
  correctedWith: CalibrationRow['correctedWith'],
  alpha: number,
): CalibrationRow {
  const sides = SIDES.map((side) => [side, agreement[side]] as const);
  return {
    dataset,
    evaluator: agreement.evaluator,
    kind: agreement.kind,
    subject,
    counts: addCounts(sides.map(([, counts]) => counts)),
    statistics: agreementStatistics(
      sides.map(([, counts]) => counts),
      alpha,
    ),
    correctedWith,
    rates: sides
      .filter(([, c]) => c.tp + c.fn + c.tn + c.fp > 0)
      .map(([side, counts]) => correctedRate(side, counts, calibration, alpha)),
  };
}

const allSides = (agreement: EvaluatorAgreement) => addCounts(SIDES.map((side) => agreement[side]));

/**
 * Calibration tables across subjects: for each dataset and each evaluator compared with the reference, one row per
 * subject and one pooled over all of them. Each side's rate as the evaluator measured it is corrected by
 * Rogan–Gladen; a subject's correction uses the sensitivity and specificity measured on the *other* subjects, as a
 * judge calibrated once is later used on a new subject (with one subject only, the same attempts: in sample).
 */
export function calibrateAcrossSuites(summaries: readonly SuiteSummary[]): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (const dataset of [...new Set(summaries.map((s) => s.dataset))]) {
    const members = summaries.filter((s) => s.dataset === dataset);
    const alpha = 1 - (members[0]?.confidence ?? 0.95);
    const evaluators = [...new Set(members.flatMap((s) => s.evaluators.map((e) => e.evaluator)))];
    for (const id of evaluators) {
      const entries = members.flatMap((s) => {
        const agreement = s.evaluators.find((e) => e.evaluator === id);
        return agreement ? [{ subject: s.subject.name, agreement }] : [];
      });
      for (const entry of entries) {
        const others = entries.filter((e) => e !== entry).map((e) => allSides(e.agreement));
        const outOfSample = others.length > 0;
        const calibration = outOfSample ? addCounts(others) : allSides(entry.agreement);
        rows.push(
          calibrationRow(
            dataset,
            entry.agreement,
            entry.subject,
            calibration,
            outOfSample ? 'other-subjects' : 'in-sample',
            alpha,
          ),
        );
      }
      const [first] = entries;
      if (entries.length < 2 || !first) continue;
      const pooled: EvaluatorAgreement = {
        ...first.agreement,
        refuse: addCounts(entries.map((e) => e.agreement.refuse)),
        comply: addCounts(entries.map((e) => e.agreement.comply)),
        neither: addCounts(entries.map((e) => e.agreement.neither)),
      };
      rows.push(calibrationRow(dataset, pooled, null, allSides(pooled), 'in-sample', alpha));
    }
  }
  return rows;
}
