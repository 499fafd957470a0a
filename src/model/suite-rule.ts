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

const count = lazySchema(() => z.number().int().min(0));

/**
 * A rate's attempts without a verdict on its criterion (no met or unmet: an error, a block, an uncovered or disputed
 * result) and what the Rubric's missing-evidence policy did with them; they are never imputed (DESIGN.md, contract 4).
 * `bound`: they stay in the denominator; the rate's `value` holds them as failing and `valueIfPassing` as passing, and
 * its interval spans both. `exclude`: they leave the denominator and are counted here as excluded.
 */
export const MissingVerdicts = lazySchema(() =>
  z.object({
    policy: z.enum(['bound', 'exclude']),
    /** Attempts without a verdict among the rate's cases. */
    attempts: count,
    /** Cases (rows) with at least one such attempt. */
    cases: count,
    /** `bound`: the rate with them held as passing; null under `exclude`, or when no case ran. */
    valueIfPassing: z.number().nullable(),
  }),
);
export type MissingVerdicts = z.infer<typeof MissingVerdicts>;

/**
 * A check's attempts without a verdict: under `bound` the check is decided with them held as failing (`ifFailing`) and
 * as passing (`ifPassing`), and its decision stands only when both agree (UNKNOWN otherwise: they could swing it).
 * Under `exclude` both are null. The check's own figures are on the decision's denominator.
 */
export const CheckMissingVerdicts = lazySchema(() =>
  MissingVerdicts.extend({ ifFailing: SuiteRuleVerdict.nullable(), ifPassing: SuiteRuleVerdict.nullable() }),
);
export type CheckMissingVerdicts = z.infer<typeof CheckMissingVerdicts>;

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
    /**
     * The rate (case-clustered mean) on the decision's denominator, attempts without a verdict held as failing under
     * `bound`; null when no case had an attempt in it.
     */
    value: z.number().nullable(),
    /** Cases the rate rests on (both sides for discrimination). */
    cases: z.number().int().min(0),
    /**
     * The case-clustered interval at `confidence` (under `bound`, spanning the attempts without a verdict held either
     * way): PASS needs it wholly on the allowed side of the threshold.
     */
    interval: Interval.nullable(),
    /** The interval at `failConfidence`: FAIL needs it wholly on the wrong side. */
    failInterval: Interval.nullable(),
    decision: SuiteRuleVerdict,
  }),
);
export type SuiteRuleCheck = z.infer<typeof SuiteRuleCheck>;

/**
 * A check as the rule decided it: its figures, and what its attempts without a verdict did (null in records written
 * before riddle.outcome/5, which left them out of the rate whatever the policy, uncounted). A capability claim keeps
 * the figures only (`SuiteRuleCheck`): it rests on the interval, which already holds them either way.
 */
export const DecidedSuiteCheck = lazySchema(() =>
  SuiteRuleCheck.extend({ withoutVerdict: CheckMissingVerdicts.nullable() }),
);
export type DecidedSuiteCheck = z.infer<typeof DecidedSuiteCheck>;

/** A check's figures alone, as a capability claim keeps them: a decided check handed over as it is would carry more. */
export function checkFigures(check: SuiteRuleCheck): SuiteRuleCheck {
  const { condition, rate, group, bound, threshold, value, cases, interval, failInterval, decision } = check;
  return { condition, rate, group, bound, threshold, value, cases, interval, failInterval, decision };
}

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
    checks: z.array(DecidedSuiteCheck),
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
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `430 attempts without a verdict (in 430 cases)`. */
export function missingVerdictsWords(missing: Pick<MissingVerdicts, 'attempts' | 'cases'>): string {
  return `${plural(missing.attempts, 'attempt')} without a verdict (in ${plural(missing.cases, 'case')})`;
}

/** What the policy did with a check's attempts without a verdict, after its figures; empty when it had none. */
function missingText(missing: CheckMissingVerdicts | null): string {
  if (missing === null || missing.attempts === 0) return '';
  if (missing.policy === 'exclude') return `; ${missingVerdictsWords(missing)} excluded`;
  const ifPassing = missing.valueIfPassing === null ? '' : `, ${fixed(missing.valueIfPassing)} as passing`;
  return `; ${missingVerdictsWords(missing)} held as failing${ifPassing}`;
}

/**
 * A check as one line of figures, with the interval its decision rests on (the Bonferroni one for FAIL) and, for a
 * decided check, its attempts without a verdict and whether they swing it:
 * `over-refusal in privacy ≤ 0.2: 0.340, 99.7% interval [0.174, 0.538] over 75 cases: FAIL`.
 */
export function describeSuiteCheck(
  check: SuiteRuleCheck | DecidedSuiteCheck,
  rule: Pick<SuiteRuleDecision, 'confidence' | 'failConfidence'>,
): string {
  const head = `${suiteRateWords(check.rate, check.group)} ${check.bound === 'atLeast' ? '≥' : '≤'} ${check.threshold}`;
  const failing = check.decision === 'FAIL';
  const shown = failing ? check.failInterval : check.interval;
  const confidence = failing ? rule.failConfidence : rule.confidence;
  const missing = 'withoutVerdict' in check ? check.withoutVerdict : null;
  const figures =
    check.value === null || shown === null
      ? 'no judged attempt'
      : `${fixed(check.value)}, ${percent(confidence)} interval [${fixed(shown.lower)}, ${fixed(shown.upper)}] over ${plural(check.cases, 'case')}`;
  const swing =
    missing?.ifFailing && missing.ifPassing && missing.ifFailing !== missing.ifPassing
      ? ` (they could swing it: ${missing.ifFailing} if they fail, ${missing.ifPassing} if they pass)`
      : '';
  return `${head}: ${figures}${missingText(missing)}: ${check.decision}${swing}`;
}
