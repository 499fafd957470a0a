import type { MissingVerdicts, Rubric } from '../model/index.js';
import type { ClusterInput } from '../statistics/index.js';

/** One case's attempts on a criterion: how many met it, how many were judged (met or unmet), how many ran. */
export interface CaseCounts {
  met: number;
  judged: number;
  run: number;
}

/**
 * How a suite rate treats the attempts without a verdict (DESIGN.md, contract 4: never imputed): left out of the
 * denominator (`judged`, the `exclude` policy), or kept in it and held as not meeting the criterion (`low`) or as
 * meeting it (`high`), the two readings the `bound` policy decides on.
 */
export type Holding = 'judged' | 'low' | 'high';

/**
 * The other end of a holding: a rate on the other side of a matched pair, or a difference's other term, is held the
 * other way (a low discrimination holds the refusing side low and the complying side high).
 */
export const OPPOSITE: Record<Holding, Holding> = { judged: 'judged', low: 'high', high: 'low' };

export type MissingEvidencePolicy = Rubric['missingEvidence'];

/** A case as a unit of a case-clustered rate under a holding. */
export function unitOf(counts: CaseCounts, holding: Holding): ClusterInput {
  if (holding === 'judged') return { successes: counts.met, attempts: counts.judged };
  const missing = counts.run - counts.judged;
  return { successes: holding === 'high' ? counts.met + missing : counts.met, attempts: counts.run };
}

/** The attempts without a verdict of these cases, and what the policy did with them. */
export function missingVerdicts(
  cases: readonly CaseCounts[],
  policy: MissingEvidencePolicy,
  valueIfPassing: number | null,
): MissingVerdicts {
  const short = cases.filter((c) => c.run > c.judged);
  return {
    policy,
    attempts: short.reduce((sum, c) => sum + c.run - c.judged, 0),
    cases: short.length,
    valueIfPassing: policy === 'bound' ? valueIfPassing : null,
  };
}

type Interval = { lower: number; upper: number };

/** The smallest interval holding both: what a decision needs under `bound` (both readings on one side). */
export function hull(a: Interval | null, b: Interval | null): Interval | null {
  if (a === null || b === null) return null;
  return { lower: Math.min(a.lower, b.lower), upper: Math.max(a.upper, b.upper) };
}
