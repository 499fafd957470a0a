import { decideStopping, stoppingHorizon } from './stopping-decision.js';
import type { OperatingCharacteristics, StoppingDecision, StoppingRuleSpec } from './types.js';
import { validateStoppingRule } from './validate-stopping-rule.js';
import { assertClosedUnit, assertInteger } from './validate.js';

/**
 * Exact operating characteristics of any sequential rule on Bernoulli(p) attempts, by dynamic
 * programming over the states (t, S): the probability of reaching each state while the rule is still
 * running is pushed forward one attempt at a time (S → S + 1 with probability p, S → S with 1 − p), and
 * the mass of each state where `decide` stops is credited to its verdict and to E[N] at t.
 * `decide(successes, trials)` must stop by t = horizon. O(horizon²) time, O(horizon) memory.
 */
export function sequentialOperatingCharacteristics(
  decide: (successes: number, trials: number) => StoppingDecision,
  horizon: number,
  p: number,
): OperatingCharacteristics {
  assertInteger('sequentialOperatingCharacteristics', 'horizon', horizon, 0);
  assertClosedUnit('sequentialOperatingCharacteristics', 'p', p);
  const result: OperatingCharacteristics = { p, pPass: 0, pFail: 0, pInconclusive: 0, expectedN: 0 };
  let running = new Float64Array(1);
  running[0] = 1;
  for (let t = 0; t <= horizon; t++) {
    const next = new Float64Array(t + 2);
    for (let s = 0; s <= t; s++) {
      const mass = running[s] ?? 0;
      if (mass === 0) continue;
      const decision = decide(s, t);
      if (decision === 'continue') {
        if (t === horizon) {
          throw new Error(
            `sequentialOperatingCharacteristics: the rule continued past its horizon ${horizon} (at ${s} of ${t})`,
          );
        }
        next[s + 1] = (next[s + 1] ?? 0) + mass * p;
        next[s] = (next[s] ?? 0) + mass * (1 - p);
        continue;
      }
      result.expectedN += mass * t;
      if (decision === 'pass') result.pPass += mass;
      else if (decision === 'fail') result.pFail += mass;
      else result.pInconclusive += mass;
    }
    running = next;
  }
  return result;
}

/**
 * Exact operating characteristics of a declared stopping rule at true success probability p:
 * P(PASS), P(FAIL), P(inconclusive) and the expected number of attempts, by the dynamic programme of
 * `sequentialOperatingCharacteristics` (no simulation error). Publish them beside the rule.
 */
export function operatingCharacteristics(rule: StoppingRuleSpec, p: number): OperatingCharacteristics {
  validateStoppingRule(rule);
  assertClosedUnit('operatingCharacteristics', 'p', p);
  return sequentialOperatingCharacteristics((s, t) => decideStopping(rule, s, t), stoppingHorizon(rule), p);
}
