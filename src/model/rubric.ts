import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { EvidenceGrade } from './vocabulary.js';

export const RUBRIC_SCHEMA = 'riddle.rubric/3';

/** What a criterion is about, so evidence about some other target cannot cover it. */
export const CriterionTarget = lazySchema(() =>
  z.object({
    kind: z.enum(['file', 'tool', 'row', 'process', 'reply', 'receipt']),
    /** File path, tool name, table name…; null when any target of the kind will do. */
    id: z.string().nullable(),
  }),
);
export type CriterionTarget = z.infer<typeof CriterionTarget>;

export const Criterion = lazySchema(() =>
  z.object({
    name: z.string().regex(/^[A-Za-z][\w.-]*$/, 'criterion names are identifiers (letters, digits, _ . -)'),
    description: z.string(),
    /** The least direct evidence that may decide this criterion. */
    needs: EvidenceGrade,
    /** An unmet required criterion fails the attempt; an unmet optional one makes it PARTIAL. */
    required: z.boolean(),
    target: CriterionTarget.nullable(),
    /** For multi-class criteria: the declared label vocabulary, and which labels count as met. */
    labels: z.object({ vocabulary: z.array(z.string()).min(2), met: z.array(z.string()).min(1) }).nullable(),
    /**
     * A scored criterion: its checks answer with a score in [0, 1], met when the score reaches `cutoff` (≥, within
     * statistics/tie.ts's tolerance). Null for a criterion judged met/unmet (or by label) directly.
     */
    score: z.object({ cutoff: z.number().min(0).max(1) }).nullable(),
  }),
);
export type Criterion = z.infer<typeof Criterion>;

/** How an arm's rate must compare to its threshold, decided by an exact one-sided bound. */
export const Threshold = lazySchema(() =>
  z.object({
    /** Required success rate τ, strictly between 0 and 1. */
    rate: z.number().gt(0).lt(1),
    /** One-sided error of the decision. */
    alpha: z.number().gt(0).lt(0.5),
  }),
);
export type Threshold = z.infer<typeof Threshold>;

export const Rubric = lazySchema(() =>
  z.object({
    schema: z.literal(RUBRIC_SCHEMA),
    id: z.string().min(1),
    revision: z.string().min(1),
    criteria: z.array(Criterion).min(1),
    threshold: Threshold,
    /**
     * What attempts without a verdict (errors, uncovered criteria) do to an arm: `bound` decides the arm with them
     * counted as failures and again as passes, UNKNOWN when the two differ; `exclude` decides on the rest alone.
     * Either way they stay in every count shown.
     */
    missingEvidence: z.enum(['bound', 'exclude']),
    /** The criterion that says the subject declined, used for over- and under-refusal across matched arms. */
    refusal: z.string().nullable(),
  }),
);
export type Rubric = z.infer<typeof Rubric>;
