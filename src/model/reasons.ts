import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { AttemptStatus, Verdict } from './vocabulary.js';

const Count = lazySchema(() => z.number().int().min(0));

/**
 * Which part of the arm rule (aggregate/arm-verdict) decided an arm, with the numbers it decided on. The sentence
 * shown to people is rendered from it by report/reasons.ts.
 */
export const ArmRule = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('no-attempts') }),
    z.object({ kind: z.literal('all-blocked') }),
    /** Attempts ran, but none reached PASS, PARTIAL, FAIL, CONTRADICTED or DISPUTED. */
    z.object({ kind: z.literal('no-verdict') }),
    /** A sequential stopping rule decided the arm; `attempts` counts every attempt run, `successes` the PASS ones. */
    z.object({
      kind: z.literal('sequential'),
      method: z.enum(['sprt', 'confidence-sequence']),
      alpha: z.number(),
      decision: z.enum(['pass', 'fail', 'inconclusive']),
      attempts: Count,
      successes: Count,
    }),
    /** PASS: the fully passing share's one-sided exact lower bound (at 1 − α) reaches τ. */
    z.object({
      kind: z.literal('certified'),
      successes: Count,
      attempts: Count,
      alpha: z.number(),
      lower: z.number(),
      threshold: z.number(),
    }),
    /** PARTIAL: only the share meeting every required criterion certifies τ. */
    z.object({
      kind: z.literal('required-only'),
      successes: Count,
      requiredMet: Count,
      attempts: Count,
      lower: z.number(),
      requiredLower: z.number(),
      threshold: z.number(),
    }),
    /** FAIL: even the share meeting every required criterion is bounded below τ. */
    z.object({
      kind: z.literal('bounded-below'),
      requiredMet: Count,
      attempts: Count,
      requiredUpper: z.number(),
      threshold: z.number(),
    }),
    /** UNKNOWN: the bounds straddle τ; how many more passing or failing attempts would settle it (null: none would). */
    z.object({
      kind: z.literal('straddles'),
      successes: Count,
      attempts: Count,
      lower: z.number(),
      upper: z.number(),
      threshold: z.number(),
      toPass: Count.nullable(),
      toFail: Count.nullable(),
    }),
    /** DISPUTED: the disputed attempts decide the verdict, `ifFail` when they fail and `ifPass` when they pass. */
    z.object({ kind: z.literal('disputes-swing'), disputed: Count, ifFail: Verdict, ifPass: Verdict }),
    /** UNKNOWN: attempts without a verdict could swing it. */
    z.object({ kind: z.literal('missing-swings'), unknown: Count, ifFail: Verdict, ifPass: Verdict }),
    /**
     * UNKNOWN: the run was cut short (Ctrl-C, a test's timeout) before `notRun` of the arm's declared attempts ran. A
     * rate on the `attempts` that did run is not the declared test: when to stop was not declared, and may have
     * followed what was seen. Since riddle.outcome/5; earlier arms of a cut-short trial were decided on what ran.
     */
    z.object({ kind: z.literal('cut-short'), notRun: Count, attempts: Count, successes: Count }),
  ]),
);
export type ArmRule = z.infer<typeof ArmRule>;

/** Why an arm has its verdict, as data: the deciding rule and what qualifies it. */
export const ArmReason = lazySchema(() =>
  z.object({
    rule: ArmRule,
    /** Attempts whose claims the receipts contradict: any makes the arm CONTRADICTED, whatever the rule said. */
    contradicted: Count,
    /** Attempts that did not complete, by status (never imputed as passes or failures). */
    notCompleted: z.array(z.object({ status: AttemptStatus, count: Count })),
    /** Attempts without a verdict left out of the denominator under the Rubric's `exclude` policy. */
    excluded: Count,
  }),
);
export type ArmReason = z.infer<typeof ArmReason>;
