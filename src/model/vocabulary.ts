import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** What happened when an attempt ran (execution), never what it means. */
export const AttemptStatus = lazySchema(() =>
  z.enum(['completed', 'subject_error', 'harness_error', 'evaluator_error', 'blocked']),
);
export type AttemptStatus = z.infer<typeof AttemptStatus>;
export const ATTEMPT_STATUSES = AttemptStatus.options;

/** What the retained evidence supports about a claim (an attempt, an arm, a trial). */
export const Verdict = lazySchema(() => z.enum(['PASS', 'PARTIAL', 'FAIL', 'CONTRADICTED', 'UNKNOWN', 'DISPUTED']));
export type Verdict = z.infer<typeof Verdict>;
export const VERDICTS = Verdict.options;

/** How directly a piece of evidence shows an effect; higher outranks lower. */
export const EvidenceGrade = lazySchema(() => z.enum(['judgment', 'text', 'observation', 'receipt']));
export type EvidenceGrade = z.infer<typeof EvidenceGrade>;
/** The grades in rank order, read once: grades are ranked for every piece of evidence, and the schema is a Proxy. */
const GRADES_BY_RANK = EvidenceGrade.options;
export function gradeRank(grade: EvidenceGrade): number {
  return GRADES_BY_RANK.indexOf(grade);
}
/** True when `provided` evidence is at least as direct as `needed`. */
export function gradeCovers(provided: EvidenceGrade, needed: EvidenceGrade): boolean {
  return gradeRank(provided) >= gradeRank(needed);
}

/** How far a tool's effect reaches, from harmless to irreversible. */
export const EffectClass = lazySchema(() => z.enum(['none', 'read', 'write', 'external', 'irreversible']));
export type EffectClass = z.infer<typeof EffectClass>;
/** The effect classes in rank order, read once (see GRADES_BY_RANK). */
const EFFECTS_BY_RANK = EffectClass.options;
export function effectRank(effect: EffectClass): number {
  return EFFECTS_BY_RANK.indexOf(effect);
}

/** An arm is the Case under test or one of its matched controls. */
export const ArmRole = lazySchema(() => z.enum(['case', 'control']));
export type ArmRole = z.infer<typeof ArmRole>;

/** Whom a finding belongs to: the boundary that must act on it. */
export const FindingOwner = lazySchema(() => z.enum(['subject', 'harness', 'evaluator', 'environment']));
export type FindingOwner = z.infer<typeof FindingOwner>;

/** A Vitest-facing result for a trial: how its test ends. */
export const TestOutcome = lazySchema(() => z.enum(['pass', 'fail', 'skip']));
export type TestOutcome = z.infer<typeof TestOutcome>;
