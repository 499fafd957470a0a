import type { Rubric, TrialSuite } from '../model/index.js';
import type { StoppingRuleSpec } from '../statistics/index.js';

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
