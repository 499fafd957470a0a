import { z } from 'zod';
import { JsonValue } from './json.js';
import { lazySchema } from './lazy-schema.js';

export const REGISTRATIONS_SCHEMA = 'riddle.registrations/1';

/**
 * What a trial declares before it sees results and must not change after (DESIGN.md, contract 7): repetition (n,
 * order, seed, stopping rule), the Rubric's threshold and missing-evidence policy, and how verdicts aggregate.
 */
export const DeclaredPolicy = lazySchema(() =>
  z.object({
    n: z.number().int(),
    order: z.string(),
    seed: z.number().int(),
    stop: z.record(z.string(), z.unknown()),
    threshold: z.object({ rate: z.number(), alpha: z.number() }),
    missingEvidence: z.string(),
    aggregation: z.record(z.string(), z.unknown()),
  }),
);
export type DeclaredPolicy = z.infer<typeof DeclaredPolicy>;

/** One trial's registration: the policy it first ran under, by fingerprint, and the Outcome of that run. */
export const Registration = lazySchema(() =>
  z.object({
    policy: z.string(),
    declared: DeclaredPolicy,
    outcome: z.string(),
  }),
);
export type Registration = z.infer<typeof Registration>;

/**
 * The project's registrations file (`.riddle/registrations.json`, meant to be committed like snapshot files): each
 * trial's declared policy, recorded at its first run, keyed by trial id.
 */
export const Registrations = lazySchema(() =>
  z.object({
    schema: z.literal(REGISTRATIONS_SCHEMA),
    trials: z.record(z.string(), Registration),
  }),
);
export type Registrations = z.infer<typeof Registrations>;

/** One field of the declared policy that differs from the registered one: its dotted path and both values. */
export const PolicyChange = lazySchema(() =>
  z.object({
    field: z.string(),
    /** The value registered at the first run; null when it was not declared then. */
    registered: JsonValue,
    /** The value this run declares; null when it is not declared now. */
    declared: JsonValue,
  }),
);
export type PolicyChange = z.infer<typeof PolicyChange>;

/**
 * How this run's declared policy stands against the registered one: `registered` (first run, registered now),
 * `unchanged`, `changed` (changed after results were seen and not accepted: the earlier Outcome is named), or
 * `accepted` (changed, and accepted on purpose with RIDDLE_ACCEPT_POLICY=1; registered anew).
 */
export const RegistrationCheck = lazySchema(() =>
  z.object({
    status: z.enum(['registered', 'unchanged', 'changed', 'accepted']),
    /** Fingerprint of this run's declared policy. */
    policy: z.string(),
    /** Fingerprint of the registered policy this run was compared with; null at a first run. */
    registeredPolicy: z.string().nullable(),
    /** The Outcome of the run that registered the earlier policy; null at a first run. */
    earlierOutcome: z.string().nullable(),
    /**
     * What changed, field by field, when the status is `changed` or `accepted` (since riddle.outcome/5); null otherwise,
     * and in earlier records, which kept only the two fingerprints.
     */
    changes: z.array(PolicyChange).nullable(),
  }),
);
export type RegistrationCheck = z.infer<typeof RegistrationCheck>;
