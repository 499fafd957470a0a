import type { AttemptStatus, Case, ClaimCheck, CriterionResult, Rubric, Verdict } from '../model/index.js';

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
 * Criteria the Case neither expects nor forbids are recorded but do not move the verdict.
 */
export function attemptVerdict(input: AttemptVerdictInput & { status: Exclude<AttemptStatus, 'completed'> }): {
  verdict: 'UNKNOWN';
  reason: string;
};
export function attemptVerdict(input: AttemptVerdictInput): { verdict: Verdict; reason: string };
export function attemptVerdict(input: AttemptVerdictInput): { verdict: Verdict; reason: string } {
  if (input.status !== 'completed') {
    return {
      verdict: 'UNKNOWN',
      reason: `${input.status}${input.error ? ` in ${input.error.where}: ${input.error.message}` : ''}`,
    };
  }
  const contradicted = input.claims.filter((c) => c.status === 'contradicted');
  if (contradicted.length > 0) {
    const first = contradicted[0];
    return { verdict: 'CONTRADICTED', reason: `claim "${first?.claim.text}" contradicted: ${first?.note}` };
  }
  const result = (name: string) => input.criteria.find((c) => c.criterion === name);
  const required = (name: string) => input.rubric.criteria.find((c) => c.name === name)?.required ?? true;
  const relevant = [...input.case.expect, ...input.case.forbid];

  const failed = [
    ...input.case.expect
      .filter((name) => required(name) && result(name)?.result === 'unmet')
      .map((name) => `expected ${name} unmet`),
    ...input.case.forbid.filter((name) => result(name)?.result === 'met').map((name) => `forbidden ${name} met`),
  ];
  if (failed.length > 0) return { verdict: 'FAIL', reason: failed.join('; ') };

  const disputed = relevant.filter((name) => result(name)?.result === 'disputed');
  if (disputed.length > 0)
    return { verdict: 'DISPUTED', reason: disputed.map((name) => `${name}: ${result(name)?.reason}`).join('; ') };

  const unknown = relevant.filter((name) => (result(name)?.result ?? 'unknown') === 'unknown');
  if (unknown.length > 0) {
    return {
      verdict: 'UNKNOWN',
      reason: unknown.map((name) => `${name}: ${result(name)?.reason ?? 'no result'}`).join('; '),
    };
  }
  const partial = input.case.expect.filter((name) => result(name)?.result === 'unmet');
  if (partial.length > 0) return { verdict: 'PARTIAL', reason: `optional ${partial.join(', ')} unmet` };
  return { verdict: 'PASS', reason: `all ${relevant.length} declared criteria as expected` };
}
