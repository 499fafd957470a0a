import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

export const EVALUATOR_SCHEMA = 'riddle.evaluator/2';

export const EvaluatorKind = lazySchema(() => z.enum(['mechanical', 'rubric', 'model-judge', 'human']));
export type EvaluatorKind = z.infer<typeof EvaluatorKind>;

/**
 * Calibration of one criterion against labelled controls (exact intervals, one-sided lower bounds vs floors).
 * A rate or coefficient with nothing to compute it on (no judged control of that kind) is null, never 0.
 */
export const CriterionCalibration = lazySchema(() =>
  z.object({
    criterion: z.string(),
    sensitivity: z.object({
      value: z.number().nullable(),
      lower: z.number(),
      upper: z.number(),
      tp: z.number().int(),
      fn: z.number().int(),
    }),
    specificity: z.object({
      value: z.number().nullable(),
      lower: z.number(),
      upper: z.number(),
      tn: z.number().int(),
      fp: z.number().int(),
    }),
    agreement: z.object({
      raw: z.number().nullable(),
      cohenKappa: z.number().nullable(),
      gwetAC1: z.number().nullable(),
      krippendorffAlpha: z.number().nullable(),
    }),
    floor: z.number(),
    trusted: z.boolean(),
  }),
);
export type CriterionCalibration = z.infer<typeof CriterionCalibration>;

export const Evaluator = lazySchema(() =>
  z.object({
    schema: z.literal(EVALUATOR_SCHEMA),
    id: z.string().min(1),
    kind: EvaluatorKind,
    revision: z.string().min(1),
    /** Criteria this evaluator gives findings on. */
    criteria: z.array(z.string()).min(1),
    /** Model behind a judge: id, family (a judge of the subject's family is not independent), prompt revision. */
    model: z.object({ id: z.string(), family: z.string(), promptRevision: z.string() }).nullable(),
    independence: z.object({ independent: z.boolean(), reason: z.string() }),
    /** Calibration evidence: a file reference with its fingerprint and per-criterion results; null = uncalibrated. */
    calibration: z
      .object({ file: z.string(), fingerprint: z.string(), criteria: z.array(CriterionCalibration) })
      .nullable(),
    limits: z.array(z.string()),
    /**
     * An adjudicator (e.g. the final label after two annotators) settles disagreement among the evaluators at its
     * grade: its finding decides and the dissent is kept as overruled, instead of a DISPUTED criterion. Always present
     * since riddle.evaluator/2 (records of /1 omitted it when false).
     */
    adjudicator: z.boolean(),
  }),
);
export type Evaluator = z.infer<typeof Evaluator>;
