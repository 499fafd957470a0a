import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { MissingVerdicts } from './suite-rule.js';

const count = lazySchema(() => z.number().int().min(0));

/** The declared rule a suite of repeated attempts is decided by: pass^k at least `atLeast`, on its interval. */
export const RepeatedVerdictRule = lazySchema(() =>
  z.object({
    k: z.number().int().min(1),
    atLeast: z.number().gt(0).lt(1),
  }),
);
export type RepeatedVerdictRule = z.infer<typeof RepeatedVerdictRule>;

/** Declared with a data-driven suite whose cases run several attempts each (a benchmark's repeated trials). */
export const RepeatedOptions = lazySchema(() =>
  z.object({
    /** The suite's verdict rule; null: report the tables without a verdict. */
    rule: RepeatedVerdictRule.nullable(),
  }),
);
export type RepeatedOptions = z.infer<typeof RepeatedOptions>;

/** pass^k over the suite: the mean over cases of the unbiased per-case estimate, with a case-clustered interval. */
export const PassHatKRow = lazySchema(() =>
  z.object({
    k: z.number().int().min(1),
    /**
     * The units of the mean: cases with at least k attempts in the denominator (under the Rubric's `bound` policy every
     * attempt run, under `exclude` the judged ones).
     */
    cases: count,
    /**
     * Mean over cases of C(c, k)/C(n, k) (Yao et al. 2024), attempts without a verdict held as failing under `bound`;
     * null when no case has k attempts in the denominator.
     */
    value: z.number().nullable(),
    /** Under `bound`, spanning the attempts without a verdict held as failing and as passing. */
    lower: z.number().nullable(),
    upper: z.number().nullable(),
    /** `korn-graubard`: the suite's case-clustered interval (statistics/clusteredRate) on the case estimates. */
    method: z.enum(['korn-graubard']).nullable(),
    /** What the attempts without a verdict did; null in records written before riddle.outcome/5 (left out, uncounted). */
    withoutVerdict: MissingVerdicts.nullable(),
  }),
);
export type PassHatKRow = z.infer<typeof PassHatKRow>;

/**
 * What a benchmark's pass^k leaderboard row leaves out, beside the row itself: intervals with cases as units, how
 * the cases spread by successes, a verdict under a declared rule, the attempts whose claims receipts contradict, and
 * every disagreement between the reference and the other evaluators of the criterion.
 */
export const RepeatedSummary = lazySchema(() =>
  z.object({
    /** The criterion whose met/unmet is an attempt's success, and the evaluator whose findings decide it. */
    criterion: z.string(),
    reference: z.string().nullable(),
    /**
     * `recorded-samples`: recorded runs that were independent samples of the original subject; `not-independent`:
     * one output served again, so the intervals describe nothing beyond these recordings.
     */
    independence: z.enum(['independent', 'not-independent', 'recorded-samples']),
    /** Attempts each case was declared to run (n). */
    attemptsPerCase: z.number().int().min(1),
    cases: count,
    /** Cases with fewer judged attempts than declared (an unknown, error or missing attempt): never imputed. */
    incomplete: z.array(z.object({ arm: z.string(), judged: count })),
    passHatK: z.array(PassHatKRow),
    /** Cases by judged successes, for 0…n successes; cases with fewer than n judged attempts are left out. */
    distribution: z.array(z.object({ successes: count, cases: count })),
    /**
     * The declared rule read on this table alone; null without one. The trial's verdict is `Outcome.suiteRule`'s, which
     * checks this rule as `pass^k` beside any refusal conditions (FAIL at α/m for m checks). Why, in words, is rendered
     * from the rule and its `passHatK` row (report/repeated-table `repeatedVerdictText`).
     */
    verdict: z.object({ rule: RepeatedVerdictRule, verdict: z.enum(['PASS', 'FAIL', 'UNKNOWN']) }).nullable(),
    /** Attempts whose claims receipts contradict (CONTRADICTED), the cases they fall in, and the claims. */
    contradicted: z.object({
      attempts: count,
      cases: count,
      claims: count,
      list: z.array(z.object({ arm: z.string(), attempt: count, claim: z.string(), note: z.string() })),
    }),
    /** Every attempt where another evaluator of the criterion decided differently from the reference. */
    disagreements: z.array(
      z.object({
        evaluator: z.string(),
        arm: z.string(),
        attempt: count,
        reference: z.enum(['met', 'unmet']),
        finding: z.enum(['met', 'unmet']),
        note: z.string(),
      }),
    ),
  }),
);
export type RepeatedSummary = z.infer<typeof RepeatedSummary>;
