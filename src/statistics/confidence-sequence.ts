import { lnBeta } from './gamma.js';
import type { StoppingDecision, StoppingRuleSpec } from './types.js';

type ConfidenceSequenceRule = Extract<StoppingRuleSpec, { kind: 'confidence-sequence' }>;

/** Default prior of the mixture: Jeffreys' Beta(½, ½). */
export const DEFAULT_CS_PRIOR = 0.5;

/**
 * Anytime-valid confidence sequence for a Bernoulli rate by the beta-binomial mixture martingale
 * (Robbins 1970, "Statistical methods related to the law of the iterated logarithm", Ann. Math. Statist.
 * 41:1397–1409; Howard, Ramdas, McAuliffe & Sekhon 2021, Ann. Statist. 49:1055–1080, §3;
 * Waudby-Smith & Ramdas 2024, JRSS-B 86:1–27):
 *   M_t(p) = B(a + S, b + t − S) / (B(a, b) · p^S (1 − p)^(t − S)),   CS_t = {p : M_t(p) < 1/α}.
 * By Ville's inequality P(∃t : p ∉ CS_t) ≤ α, so the rule may be checked after every attempt.
 *
 * CS_t is an interval containing p̂ = S/t (M_t is log-convex in p with M_t(p̂) ≤ 1 < 1/α), so it lies
 * wholly at or above τ iff τ ∉ CS_t and p̂ > τ (PASS), wholly below τ iff τ ∉ CS_t and p̂ < τ (FAIL).
 * Inconclusive at nMax, else continue. Arguments are assumed valid.
 */
export function confidenceSequenceDecision(
  rule: ConfidenceSequenceRule,
  successes: number,
  trials: number,
): StoppingDecision {
  const a = rule.priorA ?? DEFAULT_CS_PRIOR;
  const b = rule.priorB ?? DEFAULT_CS_PRIOR;
  const failures = trials - successes;
  const logMartingale =
    lnBeta(a + successes, b + failures) -
    lnBeta(a, b) -
    successes * Math.log(rule.threshold) -
    failures * Math.log1p(-rule.threshold);
  if (logMartingale >= -Math.log(rule.alpha)) {
    if (successes > rule.threshold * trials) return 'pass';
    if (successes < rule.threshold * trials) return 'fail';
  }
  return trials >= rule.nMax ? 'inconclusive' : 'continue';
}
