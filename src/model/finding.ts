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
  /** `error`: the evaluator could not judge (threw, or answered outside its vocabulary): never `unmet`. */
  result: z.enum(['met', 'unmet', 'unknown', 'error']),
  /** Multi-class criteria: the label given. */
  label: z.string().nullable(),
  /** The most direct evidence this finding rests on; null when it rests on none. */
  grade: EvidenceGrade.nullable(),
  evidence: z.array(EvidenceRef),
  note: z.string(),
  /** False for findings of an uncalibrated or untrusted judge: they cannot alone yield PASS. */
  trusted: z.boolean(),
});
export type CriterionFinding = z.infer<typeof CriterionFinding>;

/** All evaluators' findings on one criterion in one attempt, combined. */
export const CriterionResult = z.object({
  criterion: z.string(),
  result: z.enum(['met', 'unmet', 'unknown', 'disputed']),
  label: z.string().nullable(),
  grade: EvidenceGrade.nullable(),
  /** Evidence that covered the criterion at the grade it needs; empty when uncovered. */
  coveredBy: z.array(EvidenceRef),
  reason: z.string(),
});
export type CriterionResult = z.infer<typeof CriterionResult>;

export const ClaimCheck = z.object({
  claim: z.object({ action: z.string(), target: z.string(), text: z.string(), round: z.number().int() }),
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
