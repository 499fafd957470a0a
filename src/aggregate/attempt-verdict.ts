import type {
  AttemptReason,
  AttemptStatus,
  Case,
  ClaimCheck,
  CriterionResult,
  Rubric,
  Verdict,
} from '../model/index.js';

export interface AttemptVerdictInput {
  status: AttemptStatus;
  error: { where: string; message: string } | null;
  case: Case;
  rubric: Rubric;
  criteria: readonly CriterionResult[];
  claims: readonly ClaimCheck[];
}

/**
 * The verdict of one attempt. Precedence, first match wins:
 * 1. status other than `completed` → UNKNOWN (an error or a block is never a pass or a failure);
 * 2. a claim contradicted by receipts → CONTRADICTED;
 * 3. a required expected criterion unmet, or a forbidden one met → FAIL (whatever else is disputed or unknown,
 *    the attempt has already failed);
 * 4. an expected or forbidden criterion DISPUTED → DISPUTED;
 * 5. an expected or forbidden criterion without covering evidence → UNKNOWN;
 * 6. an optional expected criterion unmet → PARTIAL;
 * 7. otherwise PASS.
 * Criteria the Case neither expects nor forbids are recorded but do not move the verdict. The branch that decided
 * comes back as data (`why`); report/reasons.ts puts it in words.
 */
export function attemptVerdict(input: AttemptVerdictInput & { status: Exclude<AttemptStatus, 'completed'> }): {
  verdict: 'UNKNOWN';
  why: AttemptReason & { kind: 'not-completed' };
};
export function attemptVerdict(input: AttemptVerdictInput): { verdict: Verdict; why: AttemptReason };
export function attemptVerdict(input: AttemptVerdictInput): { verdict: Verdict; why: AttemptReason } {
  if (input.status !== 'completed') {
    return { verdict: 'UNKNOWN', why: { kind: 'not-completed', status: input.status, error: input.error } };
  }
  const contradicted = input.claims.find((c) => c.status === 'contradicted');
  if (contradicted) {
    return {
      verdict: 'CONTRADICTED',
      why: { kind: 'contradicted', claim: contradicted.claim.text, note: contradicted.note },
    };
  }
  const result = (name: string) => input.criteria.find((c) => c.criterion === name);
  const required = (name: string) => input.rubric.criteria.find((c) => c.name === name)?.required ?? true;
  const relevant = [...input.case.expect, ...input.case.forbid];

  const unmet = input.case.expect.filter((name) => required(name) && result(name)?.result === 'unmet');
  const met = input.case.forbid.filter((name) => result(name)?.result === 'met');
  if (unmet.length > 0 || met.length > 0) return { verdict: 'FAIL', why: { kind: 'failed', unmet, met } };

  const disputed = relevant.flatMap((name) => {
    const found = result(name);
    return found?.result === 'disputed' ? [{ criterion: name, reason: found.reason }] : [];
  });
  if (disputed.length > 0) return { verdict: 'DISPUTED', why: { kind: 'disputed', criteria: disputed } };

  const unknown = relevant.flatMap((name) => {
    const found = result(name);
    return (found?.result ?? 'unknown') === 'unknown' ? [{ criterion: name, reason: found?.reason ?? null }] : [];
  });
  if (unknown.length > 0) return { verdict: 'UNKNOWN', why: { kind: 'unknown', criteria: unknown } };

  const partial = input.case.expect.filter((name) => result(name)?.result === 'unmet');
  if (partial.length > 0) return { verdict: 'PARTIAL', why: { kind: 'partial', unmet: partial } };
  return { verdict: 'PASS', why: { kind: 'passed', declared: relevant.length } };
}
