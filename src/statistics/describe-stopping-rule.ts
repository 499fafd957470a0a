import { verdictThresholds } from './binomial-verdict.js';
import { attemptsToCertify } from './certify.js';
import { confidenceSequenceDecision, DEFAULT_CS_PRIOR } from './confidence-sequence.js';
import { sprtBoundaries, sprtDecision } from './sprt.js';
import type { StoppingRuleSpec } from './types.js';
import { validateStoppingRule } from './validate-stopping-rule.js';

type FixedRule = Extract<StoppingRuleSpec, { kind: 'fixed' | 'curtail' }>;

/** A number as written by a person: at most 6 significant digits, no trailing zeros. */
function formatNumber(value: number): string {
  return String(Number(value.toPrecision(6)));
}

/** A rate as a percentage, e.g. 0.05 → "5%". */
function formatPercent(rate: number): string {
  return `${formatNumber(rate * 100)}%`;
}

/** "1 success", "2 successes". */
function count(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A log-likelihood step or boundary with its sign and 3 decimals, e.g. "+2.944". */
function formatSigned(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`;
}

/** The earliest verdict possible: after how many straight successes (PASS) or failures (FAIL), as a phrase. */
function earliest(horizon: number, stops: (t: number) => boolean, verdict: 'PASS' | 'FAIL'): string {
  const [one, many] = verdict === 'PASS' ? ['success', 'successes'] : ['failure', 'failures'];
  for (let t = 1; t <= horizon; t++) {
    if (stops(t)) return `the earliest ${verdict} comes after ${t === 1 ? `a single ${one}` : `${t} straight ${many}`}`;
  }
  return `no ${verdict} is possible within ${horizon} attempts`;
}

/** What the fixed-n one-sided Clopper–Pearson verdict needs, in counts. */
function fixedVerdictCounts(rule: FixedRule): string {
  const { minPass, maxFail } = verdictThresholds(rule.n, rule.threshold, rule.alpha);
  const pass =
    minPass > rule.n
      ? `no result of ${rule.n} attempts can PASS, because certifying ${formatNumber(rule.threshold)} needs at least ${attemptsToCertify(rule.threshold, rule.alpha)} attempts, all successes`
      : minPass === rule.n
        ? `PASS needs all ${rule.n} attempts to succeed`
        : `PASS needs at least ${minPass} successes of ${rule.n}`;
  const fail =
    maxFail < 0
      ? `no result of ${rule.n} attempts can FAIL`
      : maxFail === 0
        ? 'FAIL needs every attempt to fail'
        : `FAIL needs at most ${count(maxFail, 'success', 'successes')} of ${rule.n}`;
  return `Here ${pass}; ${fail}.`;
}

/** Fixed-n and curtailed rules: the one-sided Clopper–Pearson verdict at n (see `decideStopping`). */
function describeFixed(rule: FixedRule): string {
  const threshold = formatNumber(rule.threshold);
  const confidence = formatPercent(1 - rule.alpha);
  const judge =
    `judge the one-sided ${confidence} Clopper–Pearson (exact) interval for the success rate against the threshold ${threshold}: ` +
    `PASS if its lower bound is at least ${threshold}, FAIL if its upper bound is below ${threshold}, INCONCLUSIVE otherwise.`;
  const errors =
    `Whatever the true rate, a false PASS (true rate below ${threshold}) has probability at most ${formatPercent(rule.alpha)}, ` +
    `and so has a false FAIL (true rate at least ${threshold}).`;
  const head =
    rule.kind === 'fixed'
      ? `Fixed sample: run exactly ${rule.n} attempts, then ${judge}`
      : `Curtailed fixed sample: plan ${rule.n} attempts and, after all of them, ${judge} ` +
        `Stop early as soon as the remaining attempts cannot change that verdict: it is always the one all ${rule.n} attempts would give, so the error rates are those of the fixed rule and only the number of attempts run can shrink.`;
  return `${head} ${fixedVerdictCounts(rule)} ${errors}`;
}

/** Wald's SPRT (Wald 1945), with its boundaries and per-attempt steps in numbers. */
function describeSprt(rule: Extract<StoppingRuleSpec, { kind: 'sprt' }>): string {
  const { upper, lower } = sprtBoundaries(rule);
  const p0 = formatNumber(rule.p0);
  const p1 = formatNumber(rule.p1);
  return (
    `Wald's sequential probability ratio test of "the success rate is at most ${p0}" against "it is at least ${p1}", checked after every attempt, for at most ${rule.nMax} attempts. ` +
    `Each success adds ln(p1/p0) = ${formatSigned(Math.log(rule.p1 / rule.p0))} to the log-likelihood ratio and each failure adds ln((1 − p1)/(1 − p0)) = ${formatSigned(Math.log((1 - rule.p1) / (1 - rule.p0)))}; ` +
    `PASS once it reaches ln((1 − β)/α) = ${formatSigned(upper)}, FAIL once it falls to ln(β/(1 − α)) = ${formatSigned(lower)}, INCONCLUSIVE if neither happens within ${rule.nMax} attempts. ` +
    `Wald's boundaries keep a false PASS at a rate of ${p0} or less to about ${formatPercent(rule.alpha)} and a false FAIL at a rate of ${p1} or more to about ${formatPercent(rule.beta)} (the exact figures are the rule's operating characteristics); rates between ${p0} and ${p1} may go either way. ` +
    `${capitalise(earliest(rule.nMax, (t) => sprtDecision(rule, t, t) === 'pass', 'PASS'))}, and ${earliest(rule.nMax, (t) => sprtDecision(rule, 0, t) === 'fail', 'FAIL')}.`
  );
}

/** Beta-binomial mixture confidence sequence (Robbins 1970; Howard et al. 2021). */
function describeConfidenceSequence(rule: Extract<StoppingRuleSpec, { kind: 'confidence-sequence' }>): string {
  const threshold = formatNumber(rule.threshold);
  const prior = `Beta(${formatNumber(rule.priorA ?? DEFAULT_CS_PRIOR)}, ${formatNumber(rule.priorB ?? DEFAULT_CS_PRIOR)})`;
  return (
    `Anytime-valid confidence sequence: after every attempt, compute the ${formatPercent(1 - rule.alpha)} beta-binomial mixture confidence sequence for the success rate (prior ${prior}; Robbins 1970, Howard et al. 2021), for at most ${rule.nMax} attempts. ` +
    `PASS as soon as it lies wholly at or above ${threshold}, FAIL as soon as it lies wholly below ${threshold}, INCONCLUSIVE if neither happens within ${rule.nMax} attempts. ` +
    `Looking after every attempt is allowed: whatever the true rate, the chance that the sequence ever excludes it is at most ${formatPercent(rule.alpha)}, so a false PASS or a false FAIL has probability at most ${formatPercent(rule.alpha)}. ` +
    `${capitalise(earliest(rule.nMax, (t) => confidenceSequenceDecision(rule, t, t) === 'pass', 'PASS'))}, and ${earliest(rule.nMax, (t) => confidenceSequenceDecision(rule, 0, t) === 'fail', 'FAIL')}.`
  );
}

/** First letter upper-cased, to start a sentence. */
function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One paragraph in plain words saying what a stopping rule does, what each verdict needs and what error
 * rates it guarantees (used by `riddle stopping --explain`). Validates the rule first. Deterministic:
 * the same rule always gives the same text.
 */
export function describeStoppingRule(rule: StoppingRuleSpec): string {
  validateStoppingRule(rule);
  switch (rule.kind) {
    case 'fixed':
    case 'curtail':
      return describeFixed(rule);
    case 'sprt':
      return describeSprt(rule);
    case 'confidence-sequence':
      return describeConfidenceSequence(rule);
    default:
      return rule satisfies never;
  }
}
