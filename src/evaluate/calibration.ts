import {
  CALIBRATION_SCHEMA,
  fingerprint,
  migrate,
  systemClock,
  type Calibration,
  type CalibratedCriterion,
  type CalibrationItem,
  type Clock,
  type Criterion,
  type CriterionCalibration,
  type Evaluator,
  type LabelledControl,
  type Rubric,
} from '../model/index.js';
import {
  cohenKappa,
  confusion,
  gwetAC1,
  krippendorffAlpha,
  rawAgreement,
  sensitivitySpecificity,
} from '../statistics/index.js';
import type { EvaluatorDefinition, ExpectFunction } from './evaluator.js';
import { gatherFindings, standInCase } from './findings.js';

/** What a calibration is evidence about: the evaluator's identity, not its independence, limits or calibration. */
export function evaluatorIdentity(record: Pick<Evaluator, 'id' | 'kind' | 'revision' | 'model' | 'criteria'>): string {
  return fingerprint({
    id: record.id,
    kind: record.kind,
    revision: record.revision,
    model: record.model,
    criteria: [...record.criteria].sort(),
  });
}

/** A declared floor: one for every criterion, or per criterion. */
export type CalibrationFloor = number | Readonly<Record<string, number>>;

function floorFor(floor: CalibrationFloor, criterion: string): number {
  const value = typeof floor === 'number' ? floor : floor[criterion];
  if (value === undefined)
    throw new TypeError(
      `calibrate: no floor declared for criterion "${criterion}"; declare { floor: { ${criterion}: 0.8, … } } or one number`,
    );
  if (!(value >= 0 && value < 1))
    throw new TypeError(`calibrate: the floor for "${criterion}" must be in [0, 1), got ${value}`);
  return value;
}

/** Trusted iff both one-sided lower bounds clear the floor (STATISTICS.md, "Evaluators"). */
function trustedAt(entry: Pick<CriterionCalibration, 'sensitivity' | 'specificity'>, floor: number): boolean {
  return entry.sensitivity.lower >= floor && entry.specificity.lower >= floor;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Whether a true (or judged) label means the criterion is met. */
function isPositive(criterion: Criterion, label: string): boolean {
  return criterion.labels ? criterion.labels.met.includes(label) : label === 'met';
}

function validTruth(criterion: Criterion, label: string): boolean {
  return criterion.labels ? criterion.labels.vocabulary.includes(label) : label === 'met' || label === 'unmet';
}

export interface CalibrateOptions {
  rubric: Rubric;
  /** Least one-sided lower bound of sensitivity and of specificity for the evaluator to be trusted. */
  floor: CalibrationFloor;
  /** One-sided error of each bound (default 0.05). */
  alpha?: number;
  /** Where the controls came from (a file path, a dataset name), recorded in the calibration. */
  source?: string;
  /** For evaluators whose checks use `expect` (model judges and human labels do not). */
  expect?: ExpectFunction;
  clock?: Clock;
}

const noExpect: ExpectFunction = () => {
  throw new Error('this check calls expect, but calibrate was given none: pass calibrate(…, { expect }) from a test');
};

/**
 * Run an evaluator on labelled controls and measure it per criterion: sensitivity TP/(TP+FN) and specificity
 * TN/(TN+FP) with exact one-sided Clopper–Pearson bounds, raw agreement, Cohen's κ, Gwet's AC1 and
 * Krippendorff's α between the true and the given labels. Controls it abstains or fails on are unjudged: they
 * count against neither rate and are listed. It is trusted for a criterion iff both lower bounds clear the floor.
 */
export async function calibrate(
  evaluator: EvaluatorDefinition,
  controls: readonly LabelledControl[],
  options: CalibrateOptions,
): Promise<Calibration> {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 0.5)) throw new TypeError(`calibrate: alpha must be in (0, 0.5), got ${alpha}`);
  const { record } = evaluator;
  const criteria = record.criteria.map((name) => {
    const criterion = options.rubric.criteria.find((c) => c.name === name);
    if (!criterion)
      throw new TypeError(
        `calibrate: ${record.id} judges "${name}", which rubric ${options.rubric.id} does not declare`,
      );
    return criterion;
  });
  const ids = new Set<string>();
  for (const control of controls) {
    if (ids.has(control.id)) throw new TypeError(`calibrate: control id "${control.id}" is used twice`);
    ids.add(control.id);
    for (const [name, label] of Object.entries(control.labels)) {
      const criterion = criteria.find((c) => c.name === name);
      if (criterion && !validTruth(criterion, label)) {
        const allowed = criterion.labels ? criterion.labels.vocabulary.join(', ') : 'met, unmet';
        throw new TypeError(`calibrate: control "${control.id}" labels ${name} as "${label}"; use one of: ${allowed}`);
      }
    }
  }
  for (const criterion of criteria) {
    const truths = controls.map((c) => c.labels[criterion.name]).filter((l): l is string => l !== undefined);
    if (!truths.some((l) => isPositive(criterion, l)) || !truths.some((l) => !isPositive(criterion, l))) {
      throw new TypeError(
        `calibrate: criterion "${criterion.name}" needs labelled controls of both kinds (met and unmet) to measure sensitivity and specificity`,
      );
    }
  }

  const items: CalibrationItem[] = [];
  for (const control of controls) {
    const labelled = criteria.filter((c) => control.labels[c.name] !== undefined);
    if (labelled.length === 0) continue;
    const findings = await gatherFindings({
      observation: control.observation,
      case: standInCase(
        control.id,
        labelled.map((c) => c.name),
      ),
      arm: control.id,
      attempt: 0,
      rubric: options.rubric,
      evaluators: [{ record: { ...record, criteria: labelled.map((c) => c.name) }, checks: evaluator.checks }],
      expect: options.expect ?? noExpect,
    });
    for (const criterion of labelled) {
      const finding = findings.find((f) => f.criterion === criterion.name);
      items.push({
        control: control.id,
        criterion: criterion.name,
        truth: control.labels[criterion.name] ?? '',
        // Conflicting evidence is no answer about the control's label either way.
        judged: finding?.result === 'disputed' ? 'unknown' : (finding?.result ?? 'error'),
        label: finding?.label ?? null,
        note: finding?.note ?? 'no finding',
      });
    }
  }

  const entries: CalibratedCriterion[] = criteria.map((criterion) => {
    const mine = items.filter((i) => i.criterion === criterion.name);
    const judgedLabel = (i: CalibrationItem): string | null =>
      i.judged === 'met' || i.judged === 'unmet' ? (criterion.labels ? i.label : i.judged) : null;
    const counts = confusion(
      mine.map((i) => isPositive(criterion, i.truth)),
      mine.map((i) => (i.judged === 'met' ? true : i.judged === 'unmet' ? false : null)),
    );
    const { sensitivity, specificity } = sensitivitySpecificity(counts, { alpha, sided: 'one' });
    const truth = mine.map((i) => i.truth);
    const given = mine.map(judgedLabel);
    const categories = criterion.labels ? criterion.labels.vocabulary : ['met', 'unmet'];
    const floor = floorFor(options.floor, criterion.name);
    const entry = {
      criterion: criterion.name,
      sensitivity: { ...sensitivity, value: finite(sensitivity.value) },
      specificity: { ...specificity, value: finite(specificity.value) },
      agreement: {
        raw: finite(rawAgreement(truth, given)),
        cohenKappa: finite(cohenKappa(truth, given)),
        gwetAC1: finite(gwetAC1(truth, given, { categories })),
        krippendorffAlpha: finite(krippendorffAlpha([truth, given])),
      },
      floor,
      controls: {
        positive: mine.filter((i) => isPositive(criterion, i.truth)).length,
        negative: mine.filter((i) => !isPositive(criterion, i.truth)).length,
        unjudged: counts.unjudged,
      },
    };
    return { ...entry, trusted: trustedAt(entry, floor) };
  });

  return {
    schema: CALIBRATION_SCHEMA,
    evaluator: {
      id: record.id,
      kind: record.kind,
      revision: record.revision,
      model: record.model,
      identity: evaluatorIdentity(record),
    },
    rubric: fingerprint(options.rubric),
    createdAt: new Date((options.clock ?? systemClock).now()).toISOString(),
    controls: { source: options.source ?? 'api', fingerprint: fingerprint(controls), count: controls.length },
    method: { interval: 'clopper-pearson', sided: 'one', alpha },
    criteria: entries,
    items,
  };
}

/**
 * Attach calibration evidence to an evaluator: its record then references the file by path and fingerprint and
 * carries the per-criterion results. A `floor` declared here replaces the one the calibration was made with (the
 * bounds are re-compared with it). Throws when the file is not a valid calibration, or is about another evaluator or
 * revision.
 */
export function withCalibration(
  evaluator: EvaluatorDefinition,
  evidence: { file: string; calibration: Calibration; floor?: CalibrationFloor },
): EvaluatorDefinition {
  const { record } = evaluator;
  const { file } = evidence;
  // Calibration files are usually JSON.parse'd by the caller: validate (and upgrade) before trusting a word of it.
  const calibration = migrate('calibration', evidence.calibration, file);
  if (calibration.evaluator.identity !== evaluatorIdentity(record)) {
    throw new TypeError(
      `calibration ${file} was made for ${calibration.evaluator.id}@${calibration.evaluator.revision}, not ${record.id}@${record.revision} ` +
        `(model, prompt revision or criteria differ): run \`riddle calibrate\` again for this evaluator`,
    );
  }
  const criteria: CriterionCalibration[] = calibration.criteria.map(({ controls: _controls, ...entry }) => {
    const floor = evidence.floor === undefined ? entry.floor : floorFor(evidence.floor, entry.criterion);
    return { ...entry, floor, trusted: trustedAt(entry, floor) };
  });
  return {
    ...evaluator,
    record: { ...record, calibration: { file, fingerprint: fingerprint(calibration), criteria } },
  };
}
