import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { CriterionCalibration, EvaluatorKind } from './evaluator.js';
import { observationV1toV2 } from './migrations.js';
import { Observation } from './observation.js';

export const CALIBRATION_SCHEMA = 'riddle.calibration/1';

/** A retained Observation with the true label of each criterion it is a control for. */
export const LabelledControl = lazySchema(() =>
  z.object({
    id: z.string().min(1),
    /** Hand-written controls may leave out what is absent (observers, notes, a stop reason), as version 1 did. */
    observation: z.preprocess(
      (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? observationV1toV2(value as Record<string, unknown>)
          : value,
      Observation,
    ),
    /** Criterion → `met` / `unmet`, or for a multi-class criterion one of its labels. */
    labels: z.record(z.string(), z.string()),
  }),
);
export type LabelledControl = z.infer<typeof LabelledControl>;

/** What the evaluator said on one control for one criterion, beside the truth. */
export const CalibrationItem = lazySchema(() =>
  z.object({
    control: z.string(),
    criterion: z.string(),
    truth: z.string(),
    /** `unknown` and `error` are unjudged: they count against no rate, and are listed in `unjudged`. */
    judged: z.enum(['met', 'unmet', 'unknown', 'error']),
    label: z.string().nullable(),
    note: z.string(),
  }),
);
export type CalibrationItem = z.infer<typeof CalibrationItem>;

export const CalibratedCriterion = lazySchema(() =>
  CriterionCalibration.extend({
    controls: z.object({
      /** Controls whose true label means the criterion is met. */
      positive: z.number().int(),
      negative: z.number().int(),
      /** Controls the evaluator gave no verdict on (abstained or failed). */
      unjudged: z.number().int(),
    }),
  }),
);
export type CalibratedCriterion = z.infer<typeof CalibratedCriterion>;

/**
 * An evaluator run on labelled controls: sensitivity and specificity with exact one-sided bounds, agreement
 * coefficients, and whether each criterion's bounds clear the declared floor. An Evaluator record references it
 * by file and fingerprint; it binds to the evaluator by an identity fingerprint, so a changed prompt revision or
 * model needs a new calibration.
 */
export const Calibration = lazySchema(() =>
  z.object({
    schema: z.literal(CALIBRATION_SCHEMA),
    evaluator: z.object({
      id: z.string(),
      kind: EvaluatorKind,
      revision: z.string(),
      model: z.object({ id: z.string(), family: z.string(), promptRevision: z.string() }).nullable(),
      /** Fingerprint of id, kind, revision, model and criteria: what the calibration is evidence about. */
      identity: z.string(),
    }),
    /** Fingerprint of the Rubric whose criteria were calibrated. */
    rubric: z.string(),
    createdAt: z.string(),
    controls: z.object({ source: z.string(), fingerprint: z.string(), count: z.number().int() }),
    /** Bounds are one-sided Clopper–Pearson at this alpha: trusted iff both lower bounds ≥ the floor. */
    method: z.object({ interval: z.literal('clopper-pearson'), sided: z.literal('one'), alpha: z.number() }),
    criteria: z.array(CalibratedCriterion),
    items: z.array(CalibrationItem),
  }),
);
export type Calibration = z.infer<typeof Calibration>;
