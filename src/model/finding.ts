import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { canonicalJson, sha256 } from './fingerprint.js';
import { EvidenceGrade, FindingOwner } from './vocabulary.js';

/** A pointer into the retained Observation (or an evidence file) that a finding rests on. */
export const EvidenceRef = lazySchema(() =>
  z.object({
    kind: z.enum(['file', 'tool', 'receipt', 'row', 'process', 'reply', 'claim', 'judge', 'handoff']),
    /** File path, tool name, receipt id, table…. */
    target: z.string(),
    grade: EvidenceGrade,
    detail: z.string(),
  }),
);
export type EvidenceRef = z.infer<typeof EvidenceRef>;

/**
 * Where a piece of evidence is kept: `findings[finding].evidence[evidence]` of the same attempt, so evidence that
 * covers a criterion is stored once, in the finding that read it (evaluate/coverage `coveringEvidence` resolves it).
 */
export const EvidencePointer = lazySchema(() =>
  z.object({ finding: z.number().int().min(0), evidence: z.number().int().min(0) }),
);
export type EvidencePointer = z.infer<typeof EvidencePointer>;

/** One evaluator's finding on one criterion in one attempt. */
export const CriterionFinding = lazySchema(() =>
  z.object({
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
  }),
);
export type CriterionFinding = z.infer<typeof CriterionFinding>;

/** A finding that disagreed with the deciding ones and did not count, with why it was outranked. */
export const OverruledFinding = lazySchema(() =>
  z.object({
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
  }),
);
export type OverruledFinding = z.infer<typeof OverruledFinding>;

/** Why no finding could decide a criterion (null when one did). */
export const UncoveredReason = lazySchema(() =>
  z.enum([
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
  ]),
);
export type UncoveredReason = z.infer<typeof UncoveredReason>;

/** All evaluators' findings on one criterion in one attempt, combined. */
export const CriterionResult = lazySchema(() =>
  z.object({
    criterion: z.string(),
    result: z.enum(['met', 'unmet', 'unknown', 'disputed']),
    label: z.string().nullable(),
    grade: EvidenceGrade.nullable(),
    /**
     * The evidence that covered the criterion at the grade it needs (for a disputed one, all the conflicting evidence),
     * as pointers into the same attempt's findings, each piece once; empty when uncovered.
     */
    coveredBy: z.array(EvidencePointer),
    reason: z.string(),
    /** Disagreeing findings that were outranked: the disagreement stays on record. */
    overruled: z.array(OverruledFinding),
    uncovered: UncoveredReason.nullable(),
  }),
);
export type CriterionResult = z.infer<typeof CriterionResult>;

export const ClaimCheck = lazySchema(() =>
  z.object({
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
  }),
);
export type ClaimCheck = z.infer<typeof ClaimCheck>;

/** How much a returned finding asks of its owner: `error` something failed, `warning` the evidence fell short, `info` a caveat. */
export const FindingSeverity = lazySchema(() => z.enum(['error', 'warning', 'info']));
export type FindingSeverity = z.infer<typeof FindingSeverity>;

/** The severity of each kind of finding riddle routes; a kind not listed is a `warning`. */
const SEVERITY_BY_KIND: Readonly<Record<string, FindingSeverity>> = {
  'arm-verdict': 'error',
  'contradicted-claim': 'error',
  'subject-error': 'error',
  'over-refusal': 'error',
  'under-refusal': 'error',
  'harness-error': 'error',
  'evaluator-error': 'error',
  'invalid-handoff': 'error',
  'composition-crash': 'error',
  'composition-criterion': 'error',
  'composition-verdict': 'error',
  'not-independent': 'info',
  overruled: 'info',
};

/**
 * A finding's stable id: what it is about (`about`: the criterion, evaluator, arm or message key), never how often it
 * happened, so the same problem found in the next run keeps its id.
 */
export function findingId(owner: string, composition: string | null, kind: string, about: string): string {
  return `finding:${sha256(canonicalJson([owner, composition, kind, about])).slice(0, 16)}`;
}

export const findingSeverity = (kind: string): FindingSeverity => SEVERITY_BY_KIND[kind] ?? 'warning';

/** The attempts a finding rests on are referenced up to this many; `attemptCount` keeps the full count. */
export const MAX_FINDING_ATTEMPTS = 25;

/**
 * A problem the Outcome returns to the boundary that owns it, as a record: what it rests on is referenced into the
 * Outcome (attempts by arm and index, evidence as retained), and its id is stable across runs, so the same finding
 * in the next run is recognised as the same.
 */
export const Finding = lazySchema(() =>
  z.object({
    /** `finding:` + 16 hex digits of the fingerprint of owner, composition, kind and what the finding is about (never counts). */
    id: z.string(),
    owner: FindingOwner,
    /** The Composition the finding is about, with the team that owns it; null for findings about the trial as a whole. */
    composition: z.object({ name: z.string(), owner: z.string(), version: z.string() }).nullable(),
    kind: z.string(),
    severity: FindingSeverity,
    message: z.string(),
    /** Attempts it rests on (at most MAX_FINDING_ATTEMPTS), in the order run. */
    attempts: z.array(z.object({ arm: z.string(), index: z.number().int().min(0) })),
    /** How many attempts it rests on in all; 0 for findings about the trial as a whole. */
    attemptCount: z.number().int().min(0),
    /** The retained evidence it rests on (a receipt, a handoff's payload…); [] when the attempts are the evidence. */
    evidence: z.array(EvidenceRef),
  }),
);
export type Finding = z.infer<typeof Finding>;
