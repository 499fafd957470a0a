import { verdictThresholds } from './binomial-verdict.js';
import { confidenceSequenceDecision } from './confidence-sequence.js';
import { sprtDecision } from './sprt.js';
import type { StoppingDecision, StoppingRuleSpec } from './types.js';
import { validateStoppingRule } from './validate-stopping-rule.js';
import { assertInteger } from './validate.js';

/** Most attempts a rule can run: n for fixed-n rules, nMax for sequential ones. */
export function stoppingHorizon(rule: StoppingRuleSpec): number {
  return rule.kind === 'fixed' || rule.kind === 'curtail' ? rule.n : rule.nMax;
}

/**
 * The decision of a valid rule after `trials` attempts with `successes` successes (unchecked).
 * - fixed: continue until n, then the one-sided Clopper–Pearson verdict (PASS iff L ≥ τ, FAIL iff U < τ).
 * - curtail: the same verdict, returned as soon as every final count S..S + (n − t) gives it
 *   (deterministic curtailment of a fixed-sample test; e.g. Jennison & Turnbull 2000, "Group Sequential
 *   Methods", ch. 10). The verdict is monotone in the final count, so checking both ends suffices.
 * - sprt: see `sprtDecision`; confidence-sequence: see `confidenceSequenceDecision`.
 */
export function decideStopping(rule: StoppingRuleSpec, successes: number, trials: number): StoppingDecision {
  switch (rule.kind) {
    case 'fixed':
    case 'curtail': {
      const remaining = rule.n - trials;
      if (rule.kind === 'fixed' && remaining > 0) return 'continue';
      const { minPass, maxFail } = verdictThresholds(rule.n, rule.threshold, rule.alpha);
      if (successes >= minPass) return 'pass';
      if (successes + remaining <= maxFail) return 'fail';
      if (successes > maxFail && successes + remaining < minPass) return 'inconclusive';
      return 'continue';
    }
    case 'sprt':
      return sprtDecision(rule, successes, trials);
    case 'confidence-sequence':
      return confidenceSequenceDecision(rule, successes, trials);
    default:
      return rule satisfies never;
  }
}

/**
 * What a declared stopping rule says after `trials` attempts of which `successes` succeeded:
 * 'continue', or stop with 'pass', 'fail' or 'inconclusive'. The rule is validated first (see
 * `validateStoppingRule`); trials must not exceed the rule's planned attempts (n or nMax).
 */
export function stoppingDecision(rule: StoppingRuleSpec, successes: number, trials: number): StoppingDecision {
  validateStoppingRule(rule);
  assertInteger('stoppingDecision', 'trials', trials, 0, stoppingHorizon(rule));
  assertInteger('stoppingDecision', 'successes', successes, 0, trials);
  return decideStopping(rule, successes, trials);
}
