import { z } from 'zod';
import { EvidenceGrade, FindingOwner } from './vocabulary.js';

/** A pointer into the retained Observation (or an evidence file) that a finding rests on. */
export const EvidenceRef = z.object({
  kind: z.enum(['file', 'tool', 'receipt', 'row', 'process', 'reply', 'claim', 'judge']),
  /** File path, tool name, receipt id, table…. */
  target: z.string(),
  grade: EvidenceGrade,
  detail: z.string(),
});
export type EvidenceRef = z.infer<typeof EvidenceRef>;

/** One evaluator's finding on one criterion in one attempt. */
export const CriterionFinding = z.object({
  criterion: z.string(),
  evaluator: z.string(),
  /**
   * `error`: the evaluator could not judge (threw, or answered outside its vocabulary): never `unmet`. `disputed`: the
   * evidence the check read conflicts about the target; every piece is kept in `evidence`.
   */
  result: z.enum(['met', 'unmet', 'unknown', 'error', 'disputed']),
  /** Multi-class criteria: the label given. */
  label: z.string().nullable(),
  /** The weakest grade of any evidence the check read (evaluate/findings `gradeFor`); null when none is about the target. */
  grade: EvidenceGrade.nullable(),
  evidence: z.array(EvidenceRef),
  note: z.string(),
  /** False for findings of an uncalibrated or untrusted judge: they cannot alone yield PASS. */
  trusted: z.boolean(),
  /** Copied from the evaluator's record: a dependent evaluator (e.g. a judge of the subject's family) cannot dispute an independent one. */
  independent: z.boolean(),
  /** Copied from the evaluator's record: its finding settles disagreement at its grade. */
  adjudicator: z.boolean(),
  /** A model judge's exchange, retained whole: the prompt sent and the raw reply (null for other evaluators). */
  judge: z.object({ model: z.string(), prompt: z.string(), reply: z.string() }).nullable(),
  /** On a scored criterion: the score in [0, 1] the check gave (its result is met at the Rubric's cutoff); else null. */
  score: z.number().min(0).max(1).nullable(),
});
export type CriterionFinding = z.infer<typeof CriterionFinding>;

/** A finding that disagreed with the deciding ones and did not count, with why it was outranked. */
export const OverruledFinding = z.object({
  evaluator: z.string(),
  result: z.enum(['met', 'unmet']),
  grade: EvidenceGrade.nullable(),
  /**
   * `grade`: less direct evidence (a receipt outranks text or judgment); `target`: evidence about another target;
   * `untrusted`: an uncalibrated or untrusted judge; `dependent`: not independent of the subject; `adjudicated`:
   * a declared adjudicator decided against it.
   */
  why: z.enum(['grade', 'target', 'untrusted', 'dependent', 'adjudicated']),
  note: z.string(),
});
export type OverruledFinding = z.infer<typeof OverruledFinding>;

/** Why no finding could decide a criterion (null when one did). */
export const UncoveredReason = z.enum([
  /** No evaluator judges the criterion. */
  'no-findings',
  /** The checks found no evidence either way in the Observation. */
  'no-evidence',
  /** A check passed or failed without reading any evidence. */
  'nothing-read',
  /** Only evidence less direct than the criterion needs. */
  'below-grade',
  /** Only evidence about other targets (another file, tool or table). */
  'other-target',
  /** Only findings of untrusted (uncalibrated) judges. */
  'untrusted',
  /** Every evaluator of the criterion failed to judge it. */
  'evaluator-error',
]);
export type UncoveredReason = z.infer<typeof UncoveredReason>;

/** All evaluators' findings on one criterion in one attempt, combined. */
export const CriterionResult = z.object({
  criterion: z.string(),
  result: z.enum(['met', 'unmet', 'unknown', 'disputed']),
  label: z.string().nullable(),
  grade: EvidenceGrade.nullable(),
  /** Evidence that covered the criterion at the grade it needs; empty when uncovered. */
  coveredBy: z.array(EvidenceRef),
  reason: z.string(),
  /** Disagreeing findings that were outranked: the disagreement stays on record. */
  overruled: z.array(OverruledFinding),
  uncovered: UncoveredReason.nullable(),
});
export type CriterionResult = z.infer<typeof CriterionResult>;

export const ClaimCheck = z.object({
  claim: z.object({
    action: z.string(),
    target: z.string(),
    text: z.string(),
    round: z.number().int(),
    /** `structured`: returned by the subject as data; `extracted`: found in its reply by a declared extractor. */
    source: z.enum(['structured', 'extracted']),
    /** Id of the extractor that found an extracted claim; null for structured ones. */
    extractor: z.string().nullable(),
  }),
  status: z.enum(['supported', 'contradicted', 'unverifiable']),
  receipt: EvidenceRef.nullable(),
  note: z.string(),
});
export type ClaimCheck = z.infer<typeof ClaimCheck>;

/** A problem or capability the Outcome returns to the boundary that owns it. */
export const Finding = z.object({
  owner: FindingOwner,
  kind: z.string(),
  message: z.string(),
});
export type Finding = z.infer<typeof Finding>;
