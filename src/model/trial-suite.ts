import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { Case } from './case.js';
import { RepeatedOptions } from './repeated-summary.js';
import { SuiteRuleCondition } from './suite-rule.js';
import { ArmRole } from './vocabulary.js';

export const TRIAL_SUITE_SCHEMA = 'riddle.trial-suite/3';

/** A stopping rule, declared before any attempt runs (see statistics/stopping). */
export const StoppingRule = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('fixed') }),
    z.object({ kind: z.literal('curtail') }),
    z.object({
      kind: z.literal('sprt'),
      p0: z.number().gt(0).lt(1),
      p1: z.number().gt(0).lt(1),
      alpha: z.number().gt(0).lt(0.5),
      beta: z.number().gt(0).lt(0.5),
    }),
    z.object({ kind: z.literal('confidence-sequence') }),
  ]),
);
export type StoppingRule = z.infer<typeof StoppingRule>;

export const RepetitionPolicy = lazySchema(() =>
  z.object({
    /** Attempts per arm (the maximum, when a stopping rule may end an arm early). */
    n: z.number().int().min(1),
    /** sequential: arm by arm; interleaved: round-robin across arms; shuffled: a seeded permutation of all attempts. */
    order: z.enum(['sequential', 'interleaved', 'shuffled']),
    seed: z.number().int(),
    /** Attempts running at once. */
    concurrency: z.number().int().min(1),
    stop: StoppingRule,
  }),
);
export type RepetitionPolicy = z.infer<typeof RepetitionPolicy>;

export const Arm = lazySchema(() =>
  z.object({
    /** Arm id: the Case id. */
    id: z.string().min(1),
    role: ArmRole,
    /** Pairing key: arms with the same group are matched (a trap and its controls; a dataset type pair). */
    group: z.string().nullable(),
    case: Case,
    caseFingerprint: z.string(),
  }),
);
export type Arm = z.infer<typeof Arm>;

/** Suite-level tables declared for a data-driven trial (see aggregate/suite): what to tabulate and by what. */
export const SuiteSummaryOptions = lazySchema(() =>
  z.object({
    /** Pooling key across subjects: summaries of one dataset under different subjects share it. */
    dataset: z.string().min(1),
    /** Every other option is null when not declared (aggregate/suite resolveSuiteOptions fills its default). */
    criterion: z.string().nullable(),
    groupBy: z.array(z.string()).nullable(),
    /** Evaluator whose findings are tabulated and that the others are compared with. */
    reference: z.string().nullable(),
    /** Evaluators whose disagreement is the DISPUTED share. */
    panel: z.array(z.string()).nullable(),
    alpha: z.number().gt(0).lt(1).nullable(),
    /** Cases run several attempts each: pass^k, the cases' spread by successes and a declared verdict rule. */
    repeated: RepeatedOptions.nullable(),
    /**
     * The suite's verdict rule over its suite-level rates (aggregate/suite-rule): when declared it is the trial's
     * verdict, and the per-row arm verdicts are left out of the findings.
     */
    rule: z.array(SuiteRuleCondition).min(1).nullable(),
  }),
);
export type SuiteSummaryOptions = z.infer<typeof SuiteSummaryOptions>;

/** How arm verdicts combine into the trial's, and how the trial's Vitest test ends. */
export const AggregationRules = lazySchema(() =>
  z.object({
    /** Each arm must meet its own expectation; over/under-refusal are reported across case and controls. */
    matchedControl: z.literal('each-arm'),
    /** Verdicts under which the trial's test passes; UNKNOWN from `blocked` always skips. */
    passOn: z.array(z.enum(['PASS', 'PARTIAL', 'FAIL', 'CONTRADICTED', 'UNKNOWN', 'DISPUTED'])).min(1),
    /** Suite-level tables to build over the arms (data-driven trials), or null. */
    summary: SuiteSummaryOptions.nullable(),
  }),
);
export type AggregationRules = z.infer<typeof AggregationRules>;

export const TrialSuite = lazySchema(() =>
  z.object({
    schema: z.literal(TRIAL_SUITE_SCHEMA),
    /** `file > describe > trial name`, unique in the project. */
    id: z.string().min(1),
    name: z.string().min(1),
    /** Test file, relative to the project root. */
    file: z.string(),
    arms: z.array(Arm).min(1),
    repeat: RepetitionPolicy,
    /**
     * A holdout trial runs only when asked for, and every run counts against its declared budget of accesses (Dwork
     * et al. 2015, the reusable holdout): results seen too often stop being a fair test. Null for other trials.
     */
    holdout: z.object({ budget: z.number().int().min(1) }).nullable(),
    aggregation: AggregationRules,
    /** Ids of the declared extractors that find claims in reply text; their claims are checked like structured ones. */
    claimExtractors: z.array(z.string()),
  }),
);
export type TrialSuite = z.infer<typeof TrialSuite>;
