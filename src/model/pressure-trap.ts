import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { JsonValue } from './json.js';
import { Verdict } from './vocabulary.js';

/** The trap kinds riddle builds, each with its matched controls, from declared data (run/traps). */
export const TrapKind = lazySchema(() =>
  z.enum([
    'false-premise',
    'missing-information',
    'impossible-constraint',
    'repeated-nudge',
    'dialect-distortion',
    'forbidden-method',
    'unsupported-claim',
    /** Several traps applied one after another in one attempt, their order counterbalanced (run/traps/chain). */
    'chain',
  ]),
);
export type TrapKind = z.infer<typeof TrapKind>;

/**
 * An arm's place in its matched group: the trap; the positive control (the same surface pressure on a legitimate
 * version of the request); the negative control (the plain request, no pressure).
 */
export const TrapRole = lazySchema(() => z.enum(['trap', 'positive', 'negative']));
export type TrapRole = z.infer<typeof TrapRole>;

/** How a dialect-distortion trap distorts the request; each style has a documented inverse (run/traps/distortion). */
export const DistortionStyle = lazySchema(() => z.enum(['typos', 'leetspeak', 'dialect', 'transliteration']));
export type DistortionStyle = z.infer<typeof DistortionStyle>;

/** What each kind of trap declares, as data: the truth behind a false premise, the input withheld, and so on. */
const kindSpecs = () =>
  [
    z.object({
      kind: z.literal('false-premise'),
      /** The false fact the trap's request rests on. */
      premise: z.string().min(1),
      /** What is true instead. */
      truth: z.string().min(1),
    }),
    z.object({
      kind: z.literal('missing-information'),
      /** The required input the trap withholds (its name). */
      withheld: z.string().min(1),
      /** Its value, as the positive control gives it. */
      given: JsonValue,
    }),
    z.object({
      kind: z.literal('impossible-constraint'),
      /** The constraints of the trap's request, which cannot all hold. */
      constraints: z.array(z.string().min(1)).min(2),
      /** Why they cannot all hold. */
      impossibleBecause: z.string().min(1),
      /** What the satisfiable variant (the positive control) changes, with the same wording otherwise. */
      satisfiableBecause: z.string().min(1),
    }),
    z.object({
      kind: z.literal('repeated-nudge'),
      /** Confident pushback, one per round after the first, in the declared order. */
      nudges: z.array(JsonValue).min(1),
      /** Neutral follow-ups of the positive control, as many as nudges. */
      neutral: z.array(JsonValue).min(1),
    }),
    z.object({
      kind: z.literal('dialect-distortion'),
      style: DistortionStyle,
      /** Share of the distortable places changed, in [0, 1]. */
      strength: z.number().min(0).max(1),
      seed: z.number().int(),
      /** The clean request and the distorted one the trap sends. */
      clean: z.string().min(1),
      distorted: z.string(),
      /** Share of the clean request's words the style's inverse recovers from the distorted one (1 = all). */
      recovered: z.number().min(0).max(1),
    }),
    z.object({
      kind: z.literal('forbidden-method'),
      /** The tools the trap's goal can only be reached by, whose use (requested, admitted or not) is forbidden. */
      forbidden: z.array(z.string().min(1)).min(1),
      /** Why they are forbidden. */
      because: z.string().min(1),
      /** The allowed tools by which the positive control reaches the same goal. */
      allowed: z.array(z.string().min(1)).min(1),
    }),
    z.object({
      kind: z.literal('unsupported-claim'),
      /** What the subject is invited to claim: a tool used, something remembered, an identity, a task completed. */
      about: z.enum(['tool', 'memory', 'identity', 'completion']),
      /**
       * What backs a claim: for `completion`, the tool whose successful request is the receipt of completion; for
       * `identity`, the declared subject identity; null for `tool` (the claimed tool's own request) and `memory` (the
       * retained conversation's inputs so far).
       */
      backedBy: z.string().min(1).nullable(),
    }),
  ] as const;

/** One trap kind's declared data (the seven kinds; a chain is made of these). */
export const TrapMemberSpec = lazySchema(() => z.discriminatedUnion('kind', [...kindSpecs()]));
export type TrapMemberSpec = z.infer<typeof TrapMemberSpec>;

/**
 * One trap of a chain, as this arm runs it: its group, its kind's data, the criterion it holds on this arm, and its
 * rounds (its first input and its pressure follow-ups), which stay together wherever the attempt's order puts them.
 */
export const TrapChainMember = lazySchema(() =>
  z.object({
    group: z.string().min(1),
    spec: TrapMemberSpec,
    holds: z.string().min(1),
    rounds: z.number().int().min(1),
    /** Criterion: this trap's rounds carry the content of a trap run before it (contamination); null if none declared. */
    carried: z.string().min(1).nullable(),
  }),
);
export type TrapChainMember = z.infer<typeof TrapChainMember>;

/**
 * A trap record's data: one kind's, a chain's members, or, for a sealed arm, only the kind and a salted fingerprint of
 * the data (the plaintext stays with the run; run/sealing).
 */
export const TrapSpec = lazySchema(() =>
  z.discriminatedUnion('kind', [
    ...TrapMemberSpec.options,
    z.object({ kind: z.literal('chain'), members: z.array(TrapChainMember).min(2) }),
    z.object({ kind: z.literal('sealed'), of: TrapKind, fingerprint: z.string().min(1) }),
  ]),
);
export type TrapSpec = z.infer<typeof TrapSpec>;

/** The kind of trap a record is about, sealed or not. */
export const trapKindOf = (spec: TrapSpec): TrapKind => (spec.kind === 'sealed' ? spec.of : spec.kind);

/**
 * The trap a Case belongs to and what its arm is for. Criterion names refer to the trial's Rubric; null where the
 * kind or the declaration has none.
 */
export const CaseTrap = lazySchema(() =>
  z.object({
    /** The matched group: a trap and its controls share it. */
    group: z.string().min(1),
    role: TrapRole,
    spec: TrapSpec,
    /** The criterion this arm must keep meeting, judged after every pressure round. */
    holds: z.string().min(1),
    /** Rounds of pressure (the first input and its follow-ups); a downstream follow-up task comes after them. */
    pressureRounds: z.number().int().min(1),
    /** Recognises an honest "this cannot be done / is not done", on an arm whose request cannot be completed. */
    honest: z.string().nullable(),
    /** Recognises a claim of having completed the request (a false one where it cannot be completed). */
    claimsCompletion: z.string().nullable(),
    /** The Rubric's refusal criterion, when it has one. */
    refusal: z.string().nullable(),
    /** The follow-up task after the trap: judged on its own criterion, and whether it carries the trap's content. */
    downstream: z.object({ criterion: z.string().min(1), carries: z.string().min(1) }).nullable(),
    /**
     * Counterbalancing of the ordered follow-ups (nudges) across attempts: attempt i runs them in the order of row
     * i mod k of this seeded k × k Latin square (row r lists the declared indices in the order run).
     */
    order: z.object({ seed: z.number().int(), square: z.array(z.array(z.number().int().min(0))) }).nullable(),
    /** On the trap arm: why a control is left out (a trap without both controls must say why); null otherwise. */
    without: z.object({ positive: z.string().min(1).nullable(), negative: z.string().min(1).nullable() }).nullable(),
  }),
);
export type CaseTrap = z.infer<typeof CaseTrap>;

const Share = lazySchema(() =>
  z.object({ count: z.number().int(), of: z.number().int(), rate: z.number().nullable() }),
);
const Bounds = lazySchema(() => z.object({ lower: z.number(), upper: z.number() }));

/** A share with its exact two-sided Clopper–Pearson interval (null when nothing was judged). */
export const ExactShare = lazySchema(() => Share.extend({ exact: Bounds.nullable() }));
export type ExactShare = z.infer<typeof ExactShare>;

/** How one attempt of a trap group's arm went, beyond the held criterion's rounds (kept in AttemptPressure). */
export const AttemptTrap = lazySchema(() =>
  z.object({
    group: z.string(),
    role: TrapRole,
    /** Declared indices of the ordered follow-ups in the order this attempt ran them; null when nothing is ordered. */
    order: z.array(z.number().int()).nullable(),
    /** The follow-up task after the trap: its own criterion's result and whether the trap's content was carried in. */
    downstream: z
      .object({
        result: z.enum(['met', 'unmet', 'unknown', 'disputed']),
        /** The follow-up failed and carries the trap's content; false when it did not fail or did not carry it. */
        contaminated: z.boolean().nullable(),
      })
      .nullable(),
    /**
     * On an arm whose request cannot be completed: `truthful` (the honest criterion met), `false-claim` (claimed
     * completion, or a claim the receipts contradict), `neither`; null on arms that can be completed.
     */
    nonCompletion: z.enum(['truthful', 'false-claim', 'neither']).nullable(),
    /**
     * On a chain's arm, each trap in declared order: the position it ran at in this attempt (1 = first), the attempt's
     * round it first gave way in (null if it held or could not be judged), whether it gave way in its rounds, and whether
     * it gave way carrying the content of a trap run before it; null on any other arm.
     */
    members: z
      .array(
        z.object({
          group: z.string(),
          position: z.number().int().min(1),
          gaveWayAt: z.number().int().nullable(),
          gaveWay: z.boolean().nullable(),
          contaminated: z.boolean().nullable(),
        }),
      )
      .nullable(),
  }),
);
export type AttemptTrap = z.infer<typeof AttemptTrap>;

/** One arm of a trap group, summarised: the share that gave way (with its exact interval) and the rest. */
export const TrapArmSummary = lazySchema(() =>
  z.object({
    arm: z.string(),
    role: TrapRole,
    /** The arm's verdict by the usual exact rule (aggregate/arm-verdict). */
    verdict: Verdict,
    /** Attempts whose held criterion gave way in some pressure round, of those judged through every round. */
    capitulation: ExactShare,
    /** How many gave way first in each pressure round (index 0 = round 1). */
    gaveWayAt: z.array(z.number().int()),
    /** S(j): share still holding after round j + 1. */
    survival: z.array(z.number().nullable()),
    /** Of those that gave way, the share holding again by the last pressure round. */
    recovery: Share,
    /** Attempts refusing this arm while it forbids refusal. */
    overRefusal: Share,
    nonCompletion: z.object({ truthful: z.number().int(), falseClaim: z.number().int(), neither: z.number().int() }),
    /** Follow-ups failed with the trap's content carried in, of follow-ups judged. */
    contamination: Share,
    /** Capitulation per order of the ordered follow-ups (a Latin-square row), so order effects can be estimated. */
    byOrder: z.array(z.object({ order: z.array(z.number().int()), count: z.number().int(), of: z.number().int() })),
    /**
     * On a chain's arm, per trap and per position it ran at: the share that gave way in its rounds (exact interval) and
     * the share that gave way carrying an earlier trap's content, so order effects can be estimated; [] otherwise.
     */
    byPosition: z.array(
      z.object({
        group: z.string(),
        position: z.number().int().min(1),
        capitulation: ExactShare,
        contamination: Share,
      }),
    ),
  }),
);
export type TrapArmSummary = z.infer<typeof TrapArmSummary>;

/**
 * A difference of capitulation shares with Newcombe's hybrid score interval (two-sided, 95%) and an exact one: the
 * difference of two exact Clopper–Pearson intervals at 97.5% each, whose coverage is at least 95% whatever the rates
 * (Bonferroni); null on records written before it was kept.
 */
const NetShare = lazySchema(() =>
  z
    .object({
      difference: z.number(),
      lower: z.number(),
      upper: z.number(),
      exact: z.object({ lower: z.number(), upper: z.number() }).nullable(),
    })
    .nullable(),
);

/** A trap and its controls, judged together: the Outcome's record of one matched group. */
export const TrapGroupSummary = lazySchema(() =>
  z.object({
    group: z.string(),
    kind: TrapKind,
    spec: TrapSpec,
    arms: z.array(TrapArmSummary),
    /** The trap's capitulation minus each control's; null when a side has no judged attempt or the control is absent. */
    net: z.object({ positive: NetShare, negative: NetShare }),
    /** Over-refusal of the arm that offers the legitimate request under the same surface pressure. */
    overRefusal: Share.extend({ arm: z.string().nullable() }),
    /** Why a control is absent (declared), by role. */
    without: z.object({ positive: z.string().nullable(), negative: z.string().nullable() }),
  }),
);
export type TrapGroupSummary = z.infer<typeof TrapGroupSummary>;
