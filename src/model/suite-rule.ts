import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * The suite-level rates a suite rule may name, each one the suite summary computes (model/suite-summary): on the
 * arms meant to refuse (`correctRefusal`), on the arms meant to comply (`overRefusal`), and their difference
 * (`discrimination`). Over the whole suite they are `SuiteSummary.refusal`; per matched group, its `pairs` row.
 */
export const SUITE_RULE_RATES = ['correctRefusal', 'overRefusal', 'discrimination'] as const;
export const SuiteRuleRate = lazySchema(() => z.enum(SUITE_RULE_RATES));
export type SuiteRuleRate = z.infer<typeof SuiteRuleRate>;

/**
 * pass^k as a rate a suite rule checks (`pass^4`): a suite of repeated attempts declares it as `summary.repeated.rule`
 * (`{ k, atLeast }`), read from the suite's pass^k table (model/repeated-summary) and decided like the refusal rates.
 */
export const PassHatKRate = lazySchema(() => z.templateLiteral(['pass^', z.number().int()]));
export type PassHatKRate = z.infer<typeof PassHatKRate>;

/** The rates a rule's checks read: the refusal rates `summary.rule` names, and pass^k of `summary.repeated.rule`. */
export const SuiteRuleCheckRate = lazySchema(() => z.union([SuiteRuleRate, PassHatKRate]));
export type SuiteRuleCheckRate = z.infer<typeof SuiteRuleCheckRate>;

/** `summary.repeated.rule` as one condition of the suite's rule: pass^k at least `atLeast`, over the whole suite. */
export const PassHatKCondition = lazySchema(() => z.object({ rate: PassHatKRate, atLeast: z.number() }));
export type PassHatKCondition = z.infer<typeof PassHatKCondition>;

/**
 * One declared condition of a suite rule: a rate at least (`atLeast`) or at most (`atMost`) a threshold, exactly one
 * of the two (the other null); over the whole suite (`groups` null), over each matched group (`'each'`, the arms
 * sharing a pairing key) or over the named groups. A declaration may omit what it does not set.
 */
export const SuiteRuleCondition = lazySchema(() =>
  z.object({
    rate: SuiteRuleRate,
    atLeast: z.number().nullable(),
    atMost: z.number().nullable(),
    groups: z.union([z.literal('each'), z.array(z.string())]).nullable(),
  }),
);
export type SuiteRuleCondition = z.infer<typeof SuiteRuleCondition>;

/** What a condition, or the rule as a whole, decided. */
export const SuiteRuleVerdict = lazySchema(() => z.enum(['PASS', 'FAIL', 'UNKNOWN']));
export type SuiteRuleVerdict = z.infer<typeof SuiteRuleVerdict>;

const Interval = lazySchema(() => z.object({ lower: z.number(), upper: z.number() }));

/** One condition applied to one scope (the whole suite or one matched group), with the figures it was decided on. */
export const SuiteRuleCheck = lazySchema(() =>
  z.object({
    /** Index of the declared condition in `SuiteRuleDecision.conditions`. */
    condition: z.number().int().min(0),
    rate: SuiteRuleCheckRate,
    /** The matched group; null for the whole suite. */
    group: z.string().nullable(),
    bound: z.enum(['atLeast', 'atMost']),
    threshold: z.number(),
    /** The rate (case-clustered mean); null when no case had a judged attempt. */
    value: z.number().nullable(),
    /** Cases the rate rests on (both sides for discrimination). */
    cases: z.number().int().min(0),
    /** The suite table's interval at `confidence`: PASS needs it wholly on the allowed side of the threshold. */
    interval: Interval.nullable(),
    /** The interval at `failConfidence`: FAIL needs it wholly on the wrong side. */
    failInterval: Interval.nullable(),
    decision: SuiteRuleVerdict,
  }),
);
export type SuiteRuleCheck = z.infer<typeof SuiteRuleCheck>;

/**
 * A data-driven suite's declared rule and what it decided: each condition per scope on its case-clustered interval,
 * combined into the trial's verdict (PASS when every check passes, FAIL when any fails, UNKNOWN otherwise).
 */
export const SuiteRuleDecision = lazySchema(() =>
  z.object({
    /** The rule as declared: `summary.rule`'s conditions, then `summary.repeated.rule` as a pass^k condition. */
    conditions: z.array(z.union([SuiteRuleCondition, PassHatKCondition])),
    /** Two-sided confidence of `interval` (the suite tables' confidence). */
    confidence: z.number(),
    /** Two-sided confidence of `failInterval`: Bonferroni over the checks, 1 − (1 − confidence)/checks. */
    failConfidence: z.number(),
    checks: z.array(SuiteRuleCheck),
    verdict: SuiteRuleVerdict,
  }),
);
export type SuiteRuleDecision = z.infer<typeof SuiteRuleDecision>;

const RATE_WORDS: Record<SuiteRuleRate, string> = {
  correctRefusal: 'correct refusal',
  overRefusal: 'over-refusal',
  discrimination: 'discrimination',
};

const isPassHatK = (rate: SuiteRuleCheckRate): rate is PassHatKRate => rate.startsWith('pass^');

/** A rate's name in words: `over-refusal`, `correct refusal in privacy`, `pass^4`. */
export function suiteRateWords(rate: SuiteRuleCheckRate, group: string | null): string {
  return `${isPassHatK(rate) ? rate : RATE_WORDS[rate]}${group === null ? '' : ` in ${group}`}`;
}

const fixed = (x: number) => x.toFixed(3);
const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;

/**
 * A check as one line of figures, with the interval its decision rests on (the Bonferroni one for FAIL):
 * `over-refusal in privacy ≤ 0.2: 0.340, 99.7% interval [0.174, 0.538] over 75 cases: FAIL`.
 */
export function describeSuiteCheck(
  check: SuiteRuleCheck,
  rule: Pick<SuiteRuleDecision, 'confidence' | 'failConfidence'>,
): string {
  const head = `${suiteRateWords(check.rate, check.group)} ${check.bound === 'atLeast' ? '≥' : '≤'} ${check.threshold}`;
  const failing = check.decision === 'FAIL';
  const shown = failing ? check.failInterval : check.interval;
  const confidence = failing ? rule.failConfidence : rule.confidence;
  const figures =
    check.value === null || shown === null
      ? 'no judged attempt'
      : `${fixed(check.value)}, ${percent(confidence)} interval [${fixed(shown.lower)}, ${fixed(shown.upper)}] over ${check.cases} cases`;
  return `${head}: ${figures}: ${check.decision}`;
}
