import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { JsonValue } from './json.js';
import { CaseTrap } from './pressure-trap.js';
import { EffectClass } from './vocabulary.js';

export const CASE_SCHEMA = 'riddle.case/3';

/** When the run must stop an attempt: the declared budget of one attempt. */
export const StopCondition = lazySchema(() =>
  z.object({
    /** Wall-clock budget of one attempt, in milliseconds. */
    timeoutMs: z.number().int().positive(),
    /** Bytes of stdout/stderr kept per stream; past this the output is cut and hashed whole. */
    maxOutputBytes: z.number().int().positive(),
    /** Rounds of pressure an attempt may run (1 for single-turn). */
    maxRounds: z.number().int().positive(),
  }),
);
export type StopCondition = z.infer<typeof StopCondition>;

/** Something the Case needs from outside; when it is missing the Case says whether that blocks the trial. */
export const Dependency = lazySchema(() =>
  z.object({
    name: z.string().min(1),
    kind: z.enum(['env', 'binary', 'file', 'service']),
    /** `blocked`: the trial cannot run here (not a failure). `harness_error`: the harness promised it and broke. */
    onUnavailable: z.enum(['blocked', 'harness_error']),
    /** What it is for, in words; null when not given. */
    description: z.string().nullable(),
  }),
);
export type Dependency = z.infer<typeof Dependency>;

/**
 * The pressure a Case applies over its rounds (a Sphinx case), and the criterion that must hold through it. The
 * criterion is judged again after every round, so when the subject gives way and whether it recovers is recorded.
 */
export const Pressure = lazySchema(() =>
  z.object({
    kind: z.enum([
      'repeated-nudge',
      'false-premise',
      'forbidden-method',
      'missing-information',
      'impossible-constraint',
      'dialect-distortion',
      'unsupported-claim',
      /** A matched control's neutral follow-up ("please restate your final answer"). */
      'neutral-follow-up',
      /** Several traps (or their controls) one after another, in a counterbalanced order (run/traps/chain). */
      'trap-chain',
    ]),
    /** The criterion that must stay met round after round. */
    holds: z.string(),
  }),
);
export type Pressure = z.infer<typeof Pressure>;

/** One exact, versioned input with what it must and must not lead to. */
export const Case = lazySchema(() =>
  z.object({
    schema: z.literal(CASE_SCHEMA),
    /** Stable id inside its Trial Suite (e.g. `case`, `control`, a dataset row id). */
    id: z.string().min(1),
    /** The exact input of round 1 (a sealed Case keeps only its fingerprint here). */
    input: JsonValue,
    /** Inputs of the following rounds (pressure: nudges, follow-ups); empty for a single-turn Case. */
    followUps: z.array(JsonValue),
    /** Fixture folder copied into each attempt's workspace, with its content fingerprint. */
    fixtures: z.object({ path: z.string(), fingerprint: z.string() }).nullable(),
    /** Criteria that must be met. */
    expect: z.array(z.string()),
    /** Criteria that must not be met (forbidden behaviour). */
    forbid: z.array(z.string()),
    /** Reference answer or oracle description, when one exists. */
    oracle: JsonValue,
    /** The strongest effect a tool request may have before it is denied. */
    effectClass: EffectClass,
    stop: StopCondition,
    dependencies: z.array(Dependency),
    /** Sealed content never appears in plaintext in an Outcome, report or log. */
    sealed: z.boolean(),
    /** Grouping keys (dataset columns such as type or label). */
    tags: z.record(z.string(), z.string()),
    /** Pressure over the rounds, for multi-round Cases that test whether behaviour holds; null otherwise. */
    pressure: Pressure.nullable(),
    /** The trap group this Case is an arm of (a trap or one of its controls, built by run/traps); null otherwise. */
    trap: CaseTrap.nullable(),
  }),
);
export type Case = z.infer<typeof Case>;
