import type { AttemptRecord, CoverageRow, Rubric } from '../model/index.js';

/**
 * The coverage table of an Outcome: per criterion, the evidence that covered it in each attempt (by reference),
 * or none, bound to the exact Rubric (by fingerprint) and the subject revision. An attempt that produced no
 * result for the criterion (an error before judging) counts as uncovered.
 */
export function coverageTable(
  rubric: Rubric,
  rubricFingerprint: string,
  subjectRevision: string,
  attempts: readonly Pick<AttemptRecord, 'arm' | 'index' | 'criteria'>[],
): CoverageRow[] {
  return rubric.criteria.map((criterion) => {
    const rows = attempts.map((attempt) => ({
      arm: attempt.arm,
      attempt: attempt.index,
      evidence: attempt.criteria.find((r) => r.criterion === criterion.name)?.coveredBy ?? [],
    }));
    const covered = rows.filter((r) => r.evidence.length > 0).length;
    return {
      criterion: criterion.name,
      needs: criterion.needs,
      rubric: rubricFingerprint,
      subjectRevision,
      attempts: rows,
      covered,
      uncovered: rows.length - covered,
    };
  });
}
