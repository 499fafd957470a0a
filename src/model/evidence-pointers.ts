import { isRecord, type StoredRecord } from './stored-record.js';

const sameEvidence = (a: StoredRecord, b: StoredRecord) =>
  a.kind === b.kind && a.target === b.target && a.grade === b.grade && a.detail === b.detail;

/** A v2 attempt's `criteria[].coveredBy` copies, as pointers to the same evidence in its findings. */
function attemptPointers(attempt: StoredRecord): StoredRecord {
  const findings = Array.isArray(attempt.findings) ? attempt.findings : [];
  const pointerTo = (copy: unknown) => {
    if (!isRecord(copy)) return [];
    for (const [finding, found] of findings.entries()) {
      const evidence = isRecord(found) && Array.isArray(found.evidence) ? found.evidence : [];
      const at = evidence.findIndex((ref) => isRecord(ref) && sameEvidence(ref, copy));
      if (at >= 0) return [{ finding, evidence: at }];
    }
    return [];
  };
  if (!Array.isArray(attempt.criteria)) return attempt;
  return {
    ...attempt,
    criteria: attempt.criteria.map((result) =>
      isRecord(result) && Array.isArray(result.coveredBy)
        ? { ...result, coveredBy: result.coveredBy.flatMap(pointerTo) }
        : result,
    ),
  };
}

/**
 * Outcome v2 → v3: a criterion result's `coveredBy` held copies of the evidence its findings kept; v3 points at that
 * evidence in the attempt's findings instead. Every copy was taken from those findings, so each finds its piece
 * (the first finding holding the same kind, target, grade and detail).
 */
export function coveredByPointers(outcome: StoredRecord): StoredRecord {
  if (!Array.isArray(outcome.attempts)) return outcome;
  return {
    ...outcome,
    attempts: outcome.attempts.map((attempt) => (isRecord(attempt) ? attemptPointers(attempt) : attempt)),
  };
}
