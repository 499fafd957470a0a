import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { checkFigures, SuiteRuleCheck } from './suite-rule.js';
import { ArmRole } from './vocabulary.js';

/**
 * What a capability claim holds for: the subject's revision and the fingerprints of the Rubric, the Evaluators and the
 * Environment it was judged under (the Outcome's `pinned`). Outside that scope the claim says nothing.
 */
export const CapabilityScope = lazySchema(() =>
  z.object({
    subject: z.object({ name: z.string(), revision: z.string() }),
    rubric: z.string(),
    evaluators: z.array(z.string()),
    environment: z.string(),
    /** False when attempts were replayed or cached: the claim then describes the recording, not the live subject. */
    independentAttempts: z.boolean(),
  }),
);
export type CapabilityScope = z.infer<typeof CapabilityScope>;

/**
 * The bound a claim rests on: which interval, the end of it that had to clear the threshold τ (`lower`: at least τ,
 * `upper`: at most τ), that end's value, and α, the interval's error rate (`sided`: one-sided bound, or a two-sided
 * interval at confidence 1 − α).
 */
export const CapabilityBound = lazySchema(() =>
  z.object({
    /** An arm decision's method; `newcombe` for a matched-control discrimination; `suite-table` for a suite rule's rate (the method is in `Outcome.suite`). */
    interval: z.enum(['clopper-pearson', 'sprt', 'confidence-sequence', 'newcombe', 'suite-table']),
    sided: z.enum(['one', 'two']),
    side: z.enum(['lower', 'upper']),
    value: z.number(),
    alpha: z.number(),
    threshold: z.number(),
  }),
);
export type CapabilityBound = z.infer<typeof CapabilityBound>;

/**
 * A capability claim of a healthy Outcome, as data (rendered to words by report/capability-text). It carries no
 * Outcome id: inside an Outcome a claim is about that Outcome, whose id fingerprints its content, claims included, so
 * a claim holding the id would make the id circular. Claims exported beside other Outcomes (findings.json) carry the
 * id (`ReturnedClaim`).
 */
export const CapabilityClaim = lazySchema(() =>
  z.discriminatedUnion('kind', [
    /** An arm met its expected criteria and avoided its forbidden ones often enough: the bound clears the Rubric's τ. */
    z.object({
      kind: z.literal('arm'),
      scope: CapabilityScope,
      arm: z.string(),
      role: ArmRole,
      met: z.array(z.string()),
      avoided: z.array(z.string()),
      successes: z.number().int(),
      attempts: z.number().int(),
      bound: CapabilityBound,
    }),
    /** The subject told the case from its matched controls: the discrimination's interval lies above 0. */
    z.object({
      kind: z.literal('told-apart'),
      scope: CapabilityScope,
      criterion: z.string(),
      caseRate: z.number(),
      controlRate: z.number(),
      discrimination: z.number(),
      interval: z.object({ lower: z.number(), upper: z.number(), confidence: z.number() }),
      bound: CapabilityBound,
    }),
    /** A data-driven suite met one check of its declared rule, on the rate's interval. */
    z.object({
      kind: z.literal('suite-check'),
      scope: CapabilityScope,
      check: SuiteRuleCheck,
      /** The rule's two confidences, which the check's words name. */
      confidence: z.number(),
      failConfidence: z.number(),
      bound: CapabilityBound,
    }),
    /**
     * A claim stored as words only (an Outcome written before claims were records, whose stored figures do not
     * rebuild it): kept as written, with the scope its Outcome pinned.
     */
    z.object({ kind: z.literal('legacy'), scope: CapabilityScope, sentence: z.string() }),
  ]),
);
export type CapabilityClaim = z.infer<typeof CapabilityClaim>;

/**
 * The parts of an Outcome that claims are built from, and only those (a migration parses stored data with it, so it
 * must not depend on fields other changes of the Outcome add or move).
 */
export const ClaimSource = lazySchema(() =>
  z.object({
    pinned: z.object({ rubric: z.string(), evaluators: z.array(z.string()), environment: z.string() }),
    records: z.object({
      suite: z.object({
        arms: z.array(
          z.object({ id: z.string(), case: z.object({ expect: z.array(z.string()), forbid: z.array(z.string()) }) }),
        ),
      }),
      environment: z.object({
        subject: z.object({ name: z.string(), revision: z.string() }),
        independentAttempts: z.boolean(),
      }),
    }),
    arms: z.array(
      z.object({
        arm: z.string(),
        role: ArmRole,
        decision: z.object({
          method: CapabilityBound.shape.interval.exclude(['newcombe', 'suite-table']),
          alpha: z.number(),
          threshold: z.number(),
          successes: z.number().int(),
          attempts: z.number().int(),
          lower: z.number(),
        }),
      }),
    ),
    judgment: z.object({
      matchedControl: z
        .object({
          refusalCriterion: z.string(),
          caseRefusalRate: z.number().nullable(),
          controlRefusalRate: z.number().nullable(),
          discrimination: z.number().nullable(),
          discriminationInterval: z.object({ lower: z.number(), upper: z.number(), confidence: z.number() }).nullable(),
          toldApart: z.boolean(),
          // Absent, not null, in the v3 records `capabilitiesAsRecords` reads: they predate it.
          withoutVerdict: z.object({ swing: z.array(z.string()) }).nullish(),
        })
        .nullable(),
    }),
    suiteRule: z
      .object({ confidence: z.number(), failConfidence: z.number(), checks: z.array(SuiteRuleCheck) })
      .nullable(),
  }),
);
export type ClaimSource = z.infer<typeof ClaimSource>;

/** The scope every claim of an Outcome shares. */
export function claimScope(source: Pick<ClaimSource, 'pinned' | 'records'>): CapabilityScope {
  const { subject, independentAttempts } = source.records.environment;
  return {
    subject: { name: subject.name, revision: subject.revision },
    rubric: source.pinned.rubric,
    evaluators: [...source.pinned.evaluators],
    environment: source.pinned.environment,
    independentAttempts,
  };
}

/** A suite check's claim: on the end of its interval that had to clear the threshold; none when it has no interval. */
function suiteCheckClaim(
  scope: CapabilityScope,
  rule: NonNullable<ClaimSource['suiteRule']>,
  check: SuiteRuleCheck,
): CapabilityClaim[] {
  if (check.interval === null) return [];
  const side = check.bound === 'atLeast' ? 'lower' : 'upper';
  return [
    {
      kind: 'suite-check',
      scope,
      check: checkFigures(check),
      confidence: rule.confidence,
      failConfidence: rule.failConfidence,
      bound: {
        interval: 'suite-table',
        sided: 'two',
        side,
        value: check.interval[side],
        alpha: 1 - rule.confidence,
        threshold: check.threshold,
      },
    },
  ];
}

/**
 * The capability claims of a healthy Outcome (evaluate/findings-routing decides health): one per arm on its decision's
 * bound, or one per check of a declared suite rule (a suite's rows are single attempts and claim nothing alone), and
 * the matched-control claim when the discrimination's interval lies above 0 (never on point rates) and no reading of
 * the judgment turns on its attempts without a verdict (`withoutVerdict.swing`): a judgment they could swing, to
 * under-refusal say, does not yet say the subject tells the case from its controls.
 */
export function capabilityClaims(source: ClaimSource): CapabilityClaim[] {
  const scope = claimScope(source);
  const claims: CapabilityClaim[] =
    source.suiteRule === null
      ? source.arms.map((arm) => {
          const declared = source.records.suite.arms.find((a) => a.id === arm.arm)?.case;
          const { method, alpha, threshold, successes, attempts, lower } = arm.decision;
          return {
            kind: 'arm',
            scope,
            arm: arm.arm,
            role: arm.role,
            met: [...(declared?.expect ?? [])],
            avoided: [...(declared?.forbid ?? [])],
            successes,
            attempts,
            bound: { interval: method, sided: 'one', side: 'lower', value: lower, alpha, threshold },
          };
        })
      : source.suiteRule.checks.flatMap((check) =>
          suiteCheckClaim(scope, source.suiteRule as NonNullable<ClaimSource['suiteRule']>, check),
        );
  const matched = source.judgment.matchedControl;
  if (
    matched?.toldApart &&
    (matched.withoutVerdict?.swing.length ?? 0) === 0 &&
    matched.caseRefusalRate !== null &&
    matched.controlRefusalRate !== null &&
    matched.discrimination !== null &&
    matched.discriminationInterval !== null
  ) {
    const interval = matched.discriminationInterval;
    claims.push({
      kind: 'told-apart',
      scope,
      criterion: matched.refusalCriterion,
      caseRate: matched.caseRefusalRate,
      controlRate: matched.controlRefusalRate,
      discrimination: matched.discrimination,
      interval: { ...interval },
      bound: {
        interval: 'newcombe',
        sided: 'two',
        side: 'lower',
        value: interval.lower,
        alpha: 1 - interval.confidence,
        threshold: 0,
      },
    });
  }
  return claims;
}
