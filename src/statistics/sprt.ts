import type { StoppingDecision, StoppingRuleSpec } from './types.js';

type SprtRule = Extract<StoppingRuleSpec, { kind: 'sprt' }>;

/** Wald's boundaries for the log-likelihood ratio: PASS at or above `upper`, FAIL at or below `lower`. */
export function sprtBoundaries(rule: SprtRule): { upper: number; lower: number } {
  return { upper: Math.log((1 - rule.beta) / rule.alpha), lower: Math.log(rule.beta / (1 - rule.alpha)) };
}

/**
 * Wald (1945), "Sequential tests of statistical hypotheses", Ann. Math. Statist. 16:117–186.
 * Test of H0: p ≤ p0 against H1: p ≥ p1 on Bernoulli attempts: after t attempts with S successes,
 *   LLR = S·ln(p1/p0) + (t − S)·ln((1 − p1)/(1 − p0)).
 * PASS when LLR ≥ ln((1 − β)/α), FAIL when LLR ≤ ln(β/(1 − α)), inconclusive at nMax, else continue.
 * Wald's approximation bounds the errors by about α and β; the exact figures of the truncated test come
 * from `operatingCharacteristics`. Arguments are assumed valid.
 */
export function sprtDecision(rule: SprtRule, successes: number, trials: number): StoppingDecision {
  const { upper, lower } = sprtBoundaries(rule);
  const llr = successes * Math.log(rule.p1 / rule.p0) + (trials - successes) * Math.log((1 - rule.p1) / (1 - rule.p0));
  if (llr >= upper) return 'pass';
  if (llr <= lower) return 'fail';
  return trials >= rule.nMax ? 'inconclusive' : 'continue';
}
