import type { AttemptRecord, CoverageRow, CriterionResult, EvidenceRef, Rubric } from '../model/index.js';

/**
 * The evidence a criterion result's `coveredBy` points at, from the attempt's findings, in order. A pointer to
 * nothing (a record edited by hand, or findings withheld) is an error naming the criterion and the pointer.
 */
export function coveringEvidence(
  attempt: Pick<AttemptRecord, 'arm' | 'index' | 'findings'>,
  result: Pick<CriterionResult, 'criterion' | 'coveredBy'>,
): EvidenceRef[] {
  return result.coveredBy.map((pointer) => {
    const ref = attempt.findings[pointer.finding]?.evidence[pointer.evidence];
    if (!ref)
      throw new Error(
        `attempt ${attempt.arm}#${attempt.index}: criterion ${result.criterion} points at findings[${pointer.finding}].evidence[${pointer.evidence}], which the attempt does not have`,
      );
    return ref;
  });
}

/** Whether an attempt left a criterion uncovered: no result for it (an error before judging), or one no evidence covered. */
export function leftUncovered(attempt: Pick<AttemptRecord, 'criteria'>, criterion: string): boolean {
  // Asked of every attempt for every criterion, once a trial (so unoptimised): no closure or iterator made per call.
  const { criteria } = attempt;
  for (let i = 0; i < criteria.length; i += 1) {
    const result = criteria[i] as AttemptRecord['criteria'][number];
    if (result.criterion === criterion) return result.coveredBy.length === 0;
  }
  return true;
}

/**
 * The coverage table of an Outcome: per criterion, how many attempts it was covered in and which attempts left it
 * uncovered, bound to the exact Rubric (by fingerprint) and the subject revision. The evidence that covered it is
 * referenced, not copied: it is in each attempt's `criteria[].coveredBy`. An attempt that produced no result for
 * the criterion (an error before judging) counts as uncovered.
 */
export function coverageTable(
  rubric: Rubric,
  rubricFingerprint: string,
  subjectRevision: string,
  attempts: readonly Pick<AttemptRecord, 'arm' | 'index' | 'criteria'>[],
): CoverageRow[] {
  return rubric.criteria.map((criterion) => {
    const uncoveredAttempts: CoverageRow['uncoveredAttempts'] = [];
    for (let i = 0; i < attempts.length; i += 1) {
      const attempt = attempts[i] as (typeof attempts)[number];
      if (leftUncovered(attempt, criterion.name)) uncoveredAttempts.push({ arm: attempt.arm, attempt: attempt.index });
    }
    return {
      criterion: criterion.name,
      needs: criterion.needs,
      rubric: rubricFingerprint,
      subjectRevision,
      uncoveredAttempts,
      covered: attempts.length - uncoveredAttempts.length,
      uncovered: uncoveredAttempts.length,
    };
  });
}
