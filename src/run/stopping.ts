import type { SequentialDecision } from '../aggregate/index.js';
import type { AttemptRecord, Rubric, TrialSuite } from '../model/index.js';
import { stoppingDecision, type StoppingRuleSpec } from '../statistics/index.js';

/** The statistics-level rule for one arm: the declared rule with the Rubric's threshold and α and the suite's n. */
export function stoppingRuleFor(suite: TrialSuite, rubric: Rubric): StoppingRuleSpec {
  const { n, stop } = suite.repeat;
  const { rate: threshold, alpha } = rubric.threshold;
  switch (stop.kind) {
    case 'fixed':
      return { kind: 'fixed', n, threshold, alpha };
    case 'curtail':
      return { kind: 'curtail', n, threshold, alpha };
    case 'sprt':
      return { kind: 'sprt', p0: stop.p0, p1: stop.p1, alpha: stop.alpha, beta: stop.beta, nMax: n };
    case 'confidence-sequence':
      return { kind: 'confidence-sequence', threshold, alpha, nMax: n };
    default:
      return stop satisfies never;
  }
}

/** Short label of a rule for the Outcome and the report. */
export function describeRule(rule: StoppingRuleSpec): string {
  switch (rule.kind) {
    case 'fixed':
      return `fixed n=${rule.n}`;
    case 'curtail':
      return `curtail n=${rule.n}`;
    case 'sprt':
      return `sprt p0=${rule.p0} p1=${rule.p1} α=${rule.alpha} β=${rule.beta} nMax=${rule.nMax}`;
    case 'confidence-sequence':
      return `confidence-sequence τ=${rule.threshold} α=${rule.alpha} nMax=${rule.nMax}`;
    default:
      return rule satisfies never;
  }
}

/**
 * The decision of a sequential rule (SPRT, confidence sequence) over an arm's attempts, which then decides the arm;
 * null for fixed-n rules, and when any attempt is undecided (the rule's error rates assume decided attempts).
 */
export function sequentialFor(rule: StoppingRuleSpec, records: readonly AttemptRecord[]): SequentialDecision | null {
  if (rule.kind !== 'sprt' && rule.kind !== 'confidence-sequence') return null;
  if (records.length === 0 || records.some((r) => r.verdict === 'UNKNOWN' || r.verdict === 'DISPUTED')) return null;
  const decision = stoppingDecision(rule, records.filter((r) => r.verdict === 'PASS').length, records.length);
  return { method: rule.kind, decision: decision === 'continue' ? 'inconclusive' : decision, alpha: rule.alpha };
}
