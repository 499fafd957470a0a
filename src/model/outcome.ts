import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { CapabilityClaim } from './capability.js';
import { CompositionSummary } from './composition.js';
import { Environment } from './environment.js';
import { Evaluator } from './evaluator.js';
import { ClaimCheck, CriterionFinding, CriterionResult, Finding } from './finding.js';
import { Observation } from './observation.js';
import { OutsideWrites } from './outside-writes.js';
import { ArmReason } from './reasons.js';
import { AttemptReason } from './attempt-reasons.js';
import { AttemptTrap, TrapGroupSummary } from './pressure-trap.js';
import { RegistrationCheck } from './registration.js';
import { Rubric } from './rubric.js';
import { ScoreSummary } from './score-summary.js';
import { BudgetRecord, Cost, CostBreakdown, ProviderTraffic } from './spending.js';
import { SuiteSummary } from './suite-summary.js';
import { MissingVerdicts, SuiteRuleDecision } from './suite-rule.js';
import { TrialSuite } from './trial-suite.js';
import { ArmRole, AttemptStatus, TestOutcome, Verdict } from './vocabulary.js';

export const OUTCOME_SCHEMA = 'riddle.outcome/5';

const counts = <T extends string>(keys: z.ZodEnum<Record<T, T>>) => z.record(keys, z.number().int().min(0));

/** How one attempt bore its Case's pressure, round by round, kept apart rather than averaged away. */
export const AttemptPressure = lazySchema(() =>
  z.object({
    kind: z.string(),
    holds: z.string(),
    /** The held criterion judged after each round, on the evidence up to that round. */
    rounds: z.array(
      z.object({ round: z.number().int().min(1), result: z.enum(['met', 'unmet', 'unknown', 'disputed']) }),
    ),
    /** First round in which the criterion no longer held; null when it held throughout (or was never judged). */
    gaveWayAt: z.number().int().nullable(),
    /** Having given way, whether it held again by the last round; null when it never gave way. */
    recovered: z.boolean().nullable(),
    /** Having given way before the last round, whether every later round stayed given way; null otherwise. */
    contaminated: z.boolean().nullable(),
    /** Whether it refused where the Case forbids refusing; null when the Case says nothing about refusal. */
    overRefusal: z.boolean().nullable(),
    /** Not completing what was expected: false if it claimed otherwise, true if it declined (said so); else null. */
    truthfulNonCompletion: z.boolean().nullable(),
    /** For an arm of a trap group: its role, the order run, the downstream follow-up and non-completion; else null. */
    trap: AttemptTrap.nullable(),
  }),
);
export type AttemptPressure = z.infer<typeof AttemptPressure>;

/** What went wrong for a non-completed status, with the place it happened. */
export const AttemptError = lazySchema(() => z.object({ where: z.string(), message: z.string() }));
export type AttemptError = z.infer<typeof AttemptError>;

/** Fields every attempt has, whatever its status (made with the schema that takes them). */
const attemptFields = () => ({
  arm: z.string(),
  /** 0-based repetition index within the arm. */
  index: z.number().int().min(0),
  /** 0-based position in the order actually run. */
  sequence: z.number().int().min(0),
  seed: z.number().int(),
  verdict: Verdict,
  /** Why this verdict, as data: the branch of the attempt rule that decided it (null in records written before). */
  why: AttemptReason.nullable(),
  /** `why` in words (report/reasons), kept for readers of the raw record. */
  reason: z.string(),
  startedAt: z.string(),
  durationMs: z.number(),
  /** Sandbox kept for inspection (only when asked for, and only for attempts that did not PASS). */
  sandbox: z.string().nullable(),
});

/** An attempt that did not complete is never a pass or a failure (aggregate/attempt-verdict, rule 1). */
const NotCompletedVerdict = lazySchema(() => z.literal('UNKNOWN'));

/** What judging the attempt's Observation gave. */
const judged = () => ({
  findings: z.array(CriterionFinding),
  criteria: z.array(CriterionResult),
  claims: z.array(ClaimCheck),
});
/**
 * Nothing judged: a status whose attempt has no Observation fit to judge. The lists are refused any entry but keep
 * their list types, so code that maps over every attempt's findings need not narrow first.
 */
const notJudged = () => ({
  findings: z.array(CriterionFinding).max(0),
  criteria: z.array(CriterionResult).max(0),
  claims: z.array(ClaimCheck).max(0),
  pressure: z.null(),
});

/**
 * One execution of one arm: a union tagged by `status`, so a field that cannot apply to a status cannot be set. Every
 * variant keeps every key, and a field that cannot apply is `null` (or `[]` for a list) rather than absent: the
 * records' convention (absent values are null, never an omitted key), and readers read `attempt.observation` without
 * narrowing first.
 * - completed: an Observation, judged; no error. Pressure when the Case declares it.
 * - evaluator_error: the Observation, judged as far as the evaluators went, and their error; no pressure judgment.
 * - subject_error: the error, the Observation when the subject got that far, and the judgment when the subject's
 *   error surfaced only after its attempt was judged (run/stray-errors), else [] and null.
 * - harness_error: the error and whatever was observed; nothing judged (riddle's own failure, no evidence fit to judge).
 * - blocked: the error (what was unavailable) only; the attempt did not run as declared, so nothing was observed.
 */
export const AttemptRecord = lazySchema(() => {
  // Made once for the five variants, which share them.
  const fields = attemptFields();
  const judgedFields = judged();
  const unjudged = notJudged();
  return z.discriminatedUnion('status', [
    z.object({
      ...fields,
      status: z.literal('completed'),
      observation: Observation,
      ...judgedFields,
      error: z.null(),
      /** For Cases that declare pressure; null otherwise. */
      pressure: AttemptPressure.nullable(),
    }),
    z.object({
      ...fields,
      status: z.literal('evaluator_error'),
      verdict: NotCompletedVerdict,
      observation: Observation,
      ...judgedFields,
      error: AttemptError,
      pressure: z.null(),
    }),
    z.object({
      ...fields,
      status: z.literal('subject_error'),
      verdict: NotCompletedVerdict,
      observation: Observation.nullable(),
      ...judgedFields,
      error: AttemptError,
      pressure: AttemptPressure.nullable(),
    }),
    z.object({
      ...fields,
      status: z.literal('harness_error'),
      verdict: NotCompletedVerdict,
      observation: Observation.nullable(),
      ...unjudged,
      error: AttemptError,
    }),
    z.object({
      ...fields,
      status: z.literal('blocked'),
      verdict: NotCompletedVerdict,
      observation: z.null(),
      ...unjudged,
      error: AttemptError,
    }),
  ]);
});
export type AttemptRecord = z.infer<typeof AttemptRecord>;

/** The exact decision behind an arm's verdict. */
export const ArmDecision = lazySchema(() =>
  z.object({
    /** clopper-pearson: fixed-n (or curtailed) exact one-sided bounds; sprt / confidence-sequence: the sequential rule decided. */
    method: z.enum(['clopper-pearson', 'sprt', 'confidence-sequence']),
    sided: z.literal('one'),
    alpha: z.number(),
    threshold: z.number(),
    /** Successes and attempts the bound was computed on (under the missing-evidence policy). */
    successes: z.number().int(),
    attempts: z.number().int(),
    lower: z.number(),
    upper: z.number(),
    /** Attempts, all successes (toPass) or all failures (toFail), that would settle an UNKNOWN arm. */
    toSettle: z.object({ toPass: z.number().int().nullable(), toFail: z.number().int().nullable() }).nullable(),
  }),
);
export type ArmDecision = z.infer<typeof ArmDecision>;

const Share = lazySchema(() =>
  z.object({ count: z.number().int(), of: z.number().int(), rate: z.number().nullable() }),
);

/** An arm's attempts under pressure (Sharma et al. 2023; Laban et al. 2023 "FlipFlop"). */
export const ArmPressure = lazySchema(() =>
  z.object({
    kind: z.string(),
    /** Held after round 1, and after the last round. */
    initial: Share,
    final: Share,
    /** final − initial (ΔFF). */
    delta: z.number().nullable(),
    /** P(not held at the end | held after round 1). */
    capitulation: Share,
    /** P(held at the end | not held after round 1). */
    recovery: Share,
    /** S(j): share of attempts still holding after round j + 1, among those judged through it. */
    survival: z.array(z.number().nullable()),
    overRefusals: z.number().int(),
    truthfulNonCompletions: z.number().int(),
    contaminated: z.number().int(),
  }),
);
export type ArmPressure = z.infer<typeof ArmPressure>;

export const ArmSummary = lazySchema(() =>
  z.object({
    arm: z.string(),
    role: ArmRole,
    planned: z.number().int(),
    run: z.number().int(),
    /** Attempts never run (a stopping rule ended the arm, or the run was cut short), with the reason. */
    notRun: z.object({ count: z.number().int(), reason: z.string() }),
    statuses: counts(AttemptStatus),
    verdicts: counts(Verdict),
    /**
     * Fully passing attempts over the decision's denominator (`decision.successes / decision.attempts`): errors and
     * undecided attempts the missing-evidence policy bounds count in it as not passing; null when it is 0.
     */
    rate: z.number().nullable(),
    /** Descriptive two-sided Wilson interval of `rate`, on the same denominator. */
    wilson: z.object({ lower: z.number(), upper: z.number(), confidence: z.number() }).nullable(),
    /** Decides PASS: the share of fully passing attempts. */
    decision: ArmDecision,
    /**
     * Decides PARTIAL and FAIL: the share of attempts meeting every required criterion (PASS or PARTIAL attempts),
     * on the same denominator and bound as `decision`; null in records written before it was kept.
     */
    required: z
      .object({
        successes: z.number().int(),
        attempts: z.number().int(),
        lower: z.number(),
        upper: z.number(),
      })
      .nullable(),
    /** Attempts left out of the denominators by the Rubric's `exclude` policy, each with why (empty under `bound`). */
    exclusions: z.array(z.object({ index: z.number().int(), status: AttemptStatus, reason: z.string() })),
    verdict: Verdict,
    /** Why the verdict, as data (the arm rule's branch and its numbers); null in records written before riddle.outcome/3. */
    why: ArmReason.nullable(),
    /** `why` in words (report/reasons.ts), kept for readers of the raw JSON. */
    reason: z.string(),
    /** Share of attempts whose refusal criterion was met, when the Rubric names one. */
    refusal: z.object({ refused: z.number().int(), judged: z.number().int(), rate: z.number().nullable() }).nullable(),
    /** Multi-class criteria: label counts per criterion. */
    labels: z.record(z.string(), z.record(z.string(), z.number().int())),
    /** For arms whose Case declares pressure; null otherwise. */
    pressure: ArmPressure.nullable(),
    /**
     * Per scored criterion (and scoring evaluator): the distribution of scores over the arm's attempts; [] when the
     * Rubric scores nothing, null in records written before scores were kept.
     */
    scores: z.array(ScoreSummary).nullable(),
  }),
);
export type ArmSummary = z.infer<typeof ArmSummary>;

/**
 * What the point refusal rates suggest that the intervals do not settle: the readings suggested, on how many judged
 * attempts per side, and about how many judged attempts per side would settle them if the rates held.
 * report/reasons.ts renders it.
 */
export const UnsettledReading = lazySchema(() =>
  z.object({
    /**
     * The flags the point rates alone would raise (under `bound`, with the attempts without a verdict held the way that
     * favours each), in this order: overRefusal, underRefusal, toldApart.
     */
    suggested: z.array(z.enum(['overRefusal', 'underRefusal', 'toldApart'])).min(1),
    caseJudged: z.number().int().min(0),
    controlJudged: z.number().int().min(0),
    /**
     * Judged attempts per side that would settle, at the judged rates, the suggested flags the attempts without a
     * verdict do not swing (`withoutVerdict.swing`); null when none up to the search's cap would, or none is left.
     */
    attemptsNeeded: z.number().int().min(1).nullable(),
  }),
);
export type UnsettledReading = z.infer<typeof UnsettledReading>;

/**
 * A matched-control judgment's attempts without a refusal verdict (errors, blocked, uncovered, disputed), per side and
 * for the discrimination, and what the Rubric's missing-evidence policy did with them (`cases`: arms with any).
 */
const MatchedControlMissing = lazySchema(() =>
  z.object({
    case: MissingVerdicts,
    control: MissingVerdicts,
    discrimination: MissingVerdicts,
    /**
     * Of `unsettled.suggested`, the readings these attempts leave open under `bound`: raised with them held the way
     * that favours it, not with them held the other way. [] when none (always under `exclude`).
     */
    swing: z.array(z.enum(['overRefusal', 'underRefusal', 'toldApart'])),
  }),
);

export const MatchedControlJudgment = lazySchema(() =>
  z.object({
    refusalCriterion: z.string(),
    /**
     * Refusal rates on the decision's denominator: under `bound` over every attempt run, those without a verdict held
     * as failing (not refused on the case, refused on the controls); under `exclude` over the judged attempts.
     */
    caseRefusalRate: z.number().nullable(),
    controlRefusalRate: z.number().nullable(),
    /** Refusal rate on the case minus refusal rate on its controls. */
    discrimination: z.number().nullable(),
    /**
     * Newcombe hybrid score interval of `discrimination` (two-sided, 1 − α), under `bound` spanning the attempts
     * without a verdict held either way; null when a side has no attempt in its denominator.
     */
    discriminationInterval: z.object({ lower: z.number(), upper: z.number(), confidence: z.number() }).nullable(),
    /**
     * Case and controls refused alike: both refused by a majority, by exact one-sided bounds (not point rates), under
     * `bound` even with the attempts without a verdict held as not refused.
     */
    overRefusal: z.boolean(),
    /** Case and controls complied with alike: both refusal shares bounded below ½, under `bound` even held as refused. */
    underRefusal: z.boolean(),
    /** Told apart: the discrimination interval (under `bound`, both readings) lies above 0. */
    toldApart: z.boolean(),
    /** What the point rates suggest but the intervals do not settle, with about how many attempts would; else null. */
    unsettled: UnsettledReading.nullable(),
    /** The attempts without a refusal verdict; null in records written before riddle.outcome/5, which did not count them. */
    withoutVerdict: MatchedControlMissing.nullable(),
  }),
);
export type MatchedControlJudgment = z.infer<typeof MatchedControlJudgment>;

export const TrialJudgment = lazySchema(() =>
  z.object({
    verdict: Verdict,
    reason: z.string(),
    /** Set when a declared dependency was unavailable: the trial did not run here. */
    blocked: z.string().nullable(),
    /** True when attempts that should have run did not (cut short), so the verdict cannot stand. */
    incomplete: z.boolean(),
    matchedControl: MatchedControlJudgment.nullable(),
    /**
     * Net capitulation: under pressure on the case minus under a neutral follow-up on its controls, so that a subject
     * that changes its answer whenever asked anything is not mistaken for one that yields to pressure.
     */
    pressure: z
      .object({
        caseCapitulation: z.number().nullable(),
        controlCapitulation: z.number().nullable(),
        net: z.number().nullable(),
      })
      .nullable(),
    testOutcome: TestOutcome,
  }),
);
export type TrialJudgment = z.infer<typeof TrialJudgment>;

export const CoverageRow = lazySchema(() =>
  z.object({
    criterion: z.string(),
    needs: z.string(),
    rubric: z.string(),
    subjectRevision: z.string(),
    /**
     * Attempts that left the criterion uncovered (no evidence of the grade it needs). The evidence that covered it in
     * the others is kept once, in each attempt's `criteria[].coveredBy`, not copied here.
     */
    uncoveredAttempts: z.array(z.object({ arm: z.string(), attempt: z.number().int() })),
    covered: z.number().int(),
    uncovered: z.number().int(),
  }),
);
export type CoverageRow = z.infer<typeof CoverageRow>;

export const Outcome = lazySchema(() =>
  z.object({
    schema: z.literal(OUTCOME_SCHEMA),
    /**
     * Fingerprint of the setup together with everything observed and decided, clock readings excluded (run/outcome-id):
     * two runs that observed or decided differently never share an id; a deterministic trial run twice keeps one.
     */
    id: z.string(),
    /** Fingerprint of the pinned records (the setup): groups the runs of one setup. */
    setup: z.string(),
    trial: z.object({ id: z.string(), name: z.string(), file: z.string() }),
    pinned: z.object({
      suite: z.string(),
      cases: z.record(z.string(), z.string()),
      rubric: z.string(),
      evaluators: z.array(z.string()),
      environment: z.string(),
    }),
    /** The pinned records themselves, so the Outcome can be read and re-judged alone. */
    records: z.object({ suite: TrialSuite, rubric: Rubric, evaluators: z.array(Evaluator), environment: Environment }),
    execution: z.object({
      startedAt: z.string(),
      finishedAt: z.string(),
      seed: z.number().int(),
      /** Attempts in the order actually run, as `arm#index`. */
      order: z.array(z.string()),
      stopping: z.array(
        z.object({ arm: z.string(), afterAttempts: z.number().int(), decision: z.string(), rule: z.string() }),
      ),
      independentAttempts: z.boolean(),
      /** When this Outcome re-judges another one's retained evidence: that Outcome's id. */
      rejudgedFrom: z.string().nullable(),
      /**
       * Set when the trial was cut short (interrupted by a signal, the run cancelled, or timed out): the Outcome holds
       * only the attempts that finished, and its verdict cannot be PASS. Null when the trial ran as declared.
       */
      incomplete: z.object({ reason: z.string() }).nullable(),
      /** For a holdout trial: which access this run was, of the budget; null for other trials. */
      holdout: z.object({ access: z.number().int(), budget: z.number().int() }).nullable(),
      /** The declared budget, what was spent and whether it blocked attempts; null when none was declared. */
      budget: BudgetRecord.nullable(),
      /** Provider traffic recorded, replayed or passed through (with retries); null when no provider was declared. */
      providers: ProviderTraffic.nullable(),
      /**
       * Errors raised outside any attempt's awaited call while the trial ran that could not be tied to one attempt
       * (run/stray-errors): a harness finding, and the trial is never reported as clean. [] when there were none.
       */
      strayErrors: z.array(z.string()),
      /** Writes outside the workspace seen around an unisolated subject's attempts; null when not watched. */
      outsideWrites: OutsideWrites.nullable(),
    }),
    /** The attempts in the order run; [] in a stored Outcome whose attempts are in `attemptsFile`. */
    attempts: z.array(AttemptRecord),
    /**
     * Where the attempts are when stored apart: a JSON Lines file (one AttemptRecord per line) named relative to the
     * Outcome file's folder. Null when `attempts` holds them (in memory, and in records written before the split).
     */
    attemptsFile: z.string().nullable(),
    arms: z.array(ArmSummary),
    judgment: TrialJudgment,
    /** Suite-level tables of a data-driven trial (label distributions, pairs, disputes, calibration), or null. */
    suite: SuiteSummary.nullable(),
    /**
     * The data-driven suite's declared rule (`summary.rule`) and each condition's decision on its case-clustered
     * interval; when set, its verdict is the trial's. Null when no rule was declared.
     */
    suiteRule: SuiteRuleDecision.nullable(),
    coverage: z.array(CoverageRow),
    /** Capability claims as records (the claim, its scope, the bound it rests on), for healthy Outcomes only. */
    capabilities: z.array(CapabilityClaim),
    findings: z.array(Finding),
    /** Each trap group (a trap and its matched controls), judged together; [] when the trial declares none. */
    traps: z.array(TrapGroupSummary),
    /**
     * For a trial whose subject is a Composition Suite: the graph pinned (its fingerprint and each composition's
     * version), each attempt's attribution and each composition's own results; null for other subjects.
     */
    compositions: CompositionSummary.nullable(),
    /** Tokens and USD from the attempts' receipts (priced by the declared table where they carry no cost), in total, per arm and per attempt. */
    cost: Cost.extend(CostBreakdown.shape),
    latency: z.object({ meanMs: z.number().nullable(), p50Ms: z.number().nullable(), p95Ms: z.number().nullable() }),
    warnings: z.array(z.string()),
    /**
     * The declared policy against the project's registrations (declared before seen): whether it changed after results
     * were recorded, with the earlier Outcome; null when not checked (re-judged Outcomes, runs outside the Vitest layer).
     */
    registration: RegistrationCheck.nullable(),
  }),
);
export type Outcome = z.infer<typeof Outcome>;
