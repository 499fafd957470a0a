import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { JsonValue } from './json.js';
// observation.ts holds a CompositionTrace: each side refers to the other lazily, so either may load first.
import { FileChange, ProcessExit, Receipt } from './observation.js';
import { Verdict } from './vocabulary.js';

export const COMPOSITION_SUITE_SCHEMA = 'riddle.composition-suite/1';

/** One separately owned Composition as pinned: who owns it, its version and the types it takes and gives. */
export const CompositionNode = lazySchema(() =>
  z.object({
    name: z.string().min(1),
    /** The team or person a finding about this composition returns to. */
    owner: z.string().min(1),
    /** Declared version: change it whenever the composition's behaviour may change. */
    version: z.string().min(1),
    /** JSON Schema (draft 2020-12) of the input it accepts, generated from its zod schema. */
    input: z.record(z.string(), JsonValue),
    /** JSON Schema of the output it promises. */
    output: z.record(z.string(), JsonValue),
    /** The subject that runs it: its kind and name. */
    subject: z.object({ kind: z.enum(['function', 'command', 'http', 'replay']), name: z.string() }),
    /** Names of its own criteria, judged on its retained input and output. */
    criteria: z.array(z.string()),
  }),
);
export type CompositionNode = z.infer<typeof CompositionNode>;

/** A typed edge: the producer's output (or the part `map` names) becomes the consumer's input. */
export const Handoff = lazySchema(() =>
  z.object({
    from: z.string(),
    to: z.string(),
    /** Dotted path into the producer's output handed on instead of the whole output (`plan.steps`); null: all of it. */
    map: z.string().nullable(),
    /** A declared loop edge (it may close a cycle): taken while its condition holds, at most `max` times per attempt. */
    loop: z.object({ max: z.number().int().min(1) }).nullable(),
  }),
);
export type Handoff = z.infer<typeof Handoff>;

/** A versioned graph of separately owned Compositions and typed handoffs. */
export const CompositionSuite = lazySchema(() =>
  z.object({
    schema: z.literal(COMPOSITION_SUITE_SCHEMA),
    name: z.string().min(1),
    version: z.string().min(1),
    compositions: z.array(CompositionNode).min(1),
    handoffs: z.array(Handoff),
    /** Receives the attempt's input. */
    entry: z.string(),
    /** Its output is the attempt's reply, judged by the trial's Rubric. */
    exit: z.string(),
  }),
);
export type CompositionSuite = z.infer<typeof CompositionSuite>;

/** A value handed between compositions: fingerprinted whole, retained up to a size. */
export const Payload = lazySchema(() =>
  z.object({
    /** sha256 (hex) of the value's canonical JSON. */
    sha256: z.string(),
    /** Size of the canonical JSON, in bytes. */
    bytes: z.number().int().min(0),
    /** The value itself; null when it was larger than the retention cap (`truncated`). */
    value: JsonValue,
    truncated: z.boolean(),
  }),
);
export type Payload = z.infer<typeof Payload>;

/** A payload checked against the schema it must meet. */
export const SchemaCheck = lazySchema(() =>
  z.discriminatedUnion('result', [
    z.object({ result: z.literal('valid') }),
    z.object({
      result: z.literal('invalid'),
      /** Each problem with its path inside the payload (`steps.0.title`, `(root)`). */
      issues: z.array(z.object({ path: z.string(), message: z.string() })).min(1),
    }),
  ]),
);
export type SchemaCheck = z.infer<typeof SchemaCheck>;

/** One handoff as it happened in an attempt. `producer` null: the attempt's own input handed to the entry. */
export const HandoffObservation = lazySchema(() =>
  z.object({
    producer: z.string().nullable(),
    /** Null: the exit's output handed back as the attempt's reply. */
    consumer: z.string().nullable(),
    /** The attempt's round (each round runs the graph on that round's input). */
    round: z.number().int().min(1),
    /** 1-based pass through the graph (above 1 only inside a declared loop). */
    iteration: z.number().int().min(1),
    payload: Payload,
    /** The payload against the consumer's input schema (the exit's own output schema when the consumer is null). */
    check: SchemaCheck,
  }),
);
export type HandoffObservation = z.infer<typeof HandoffObservation>;

/** One of a composition's own criteria, judged on its retained input and output. */
export const OwnCriterionResult = lazySchema(() =>
  z.object({
    criterion: z.string(),
    /** `error`: the check threw; never `unmet`. */
    result: z.enum(['met', 'unmet', 'error']),
    note: z.string(),
  }),
);
export type OwnCriterionResult = z.infer<typeof OwnCriterionResult>;

/** What one composition did in one pass: its own observation beside the attempt's. */
export const CompositionStep = lazySchema(() =>
  z.object({
    composition: z.string(),
    owner: z.string(),
    version: z.string(),
    round: z.number().int().min(1),
    iteration: z.number().int().min(1),
    /** `crashed`: it threw, failed or was stopped; its output is then null. */
    status: z.enum(['completed', 'crashed']),
    error: z.string().nullable(),
    output: Payload.nullable(),
    /** Its output against its own declared output schema; null when it crashed. */
    outputCheck: SchemaCheck.nullable(),
    /** Its own criteria; [] when it crashed or its output broke its type (nothing valid to judge). */
    criteria: z.array(OwnCriterionResult),
    observation: z.object({
      durationMs: z.number(),
      /** Tools it called through the attempt's gateway, in order, with the error when one failed. */
      tools: z.array(z.object({ tool: z.string(), error: z.string().nullable() })),
      receipts: z.array(z.lazy(() => Receipt)),
      exit: z.lazy(() => ProcessExit).nullable(),
      notes: z.array(z.string()),
      /** Changes in the attempt's workspace while it ran (its own writes); null when the attempt has no workspace. */
      files: z.array(z.lazy(() => FileChange)).nullable(),
      /** CPU time and peak memory its subject reported (a command's process tree); null where not measured. */
      resources: z.object({ cpuMs: z.number().nullable(), peakRssBytes: z.number().nullable() }),
    }),
  }),
);
export type CompositionStep = z.infer<typeof CompositionStep>;

/** Where an attempt through the graph stopped. */
export const CompositionStop = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('finished') }),
    z.object({ kind: z.literal('crashed'), composition: z.string(), iteration: z.number().int() }),
    /** A handoff broke its type: the consumer (null: the attempt's reply) never received it. */
    z.object({
      kind: z.literal('invalid-handoff'),
      producer: z.string().nullable(),
      consumer: z.string().nullable(),
      iteration: z.number().int(),
    }),
  ]),
);
export type CompositionStop = z.infer<typeof CompositionStop>;

/** What an attempt through a Composition Suite observed, kept in the attempt's Observation. */
export const CompositionTrace = lazySchema(() =>
  z.object({
    suite: z.object({ name: z.string(), version: z.string(), fingerprint: z.string() }),
    steps: z.array(CompositionStep),
    handoffs: z.array(HandoffObservation),
    stopped: CompositionStop,
  }),
);
export type CompositionTrace = z.infer<typeof CompositionTrace>;

/** One link of the path an attribution followed: a composition's pass and what its own evidence said. */
export const AttributionLink = lazySchema(() =>
  z.object({
    composition: z.string(),
    iteration: z.number().int(),
    /** `met`: ran, valid output, every own criterion met; otherwise what failed first. */
    state: z.enum(['met', 'unmet-criterion', 'invalid-output', 'crashed', 'criterion-error']),
  }),
);
export type AttributionLink = z.infer<typeof AttributionLink>;

/** Whose part an attempt's failure was, decided in aggregate/attribution.ts. */
export const Attribution = lazySchema(() =>
  z.discriminatedUnion('kind', [
    /** Nothing to attribute: the attempt passed end to end. */
    z.object({ kind: z.literal('none') }),
    /** A handoff broke its type: the producer's (null producer: the attempt's input, the harness's). */
    z.object({
      kind: z.literal('invalid-handoff'),
      composition: z.string().nullable(),
      consumer: z.string().nullable(),
      chain: z.array(AttributionLink),
      note: z.string(),
    }),
    /** A consumer crashed on a valid payload: the consumer's. */
    z.object({ kind: z.literal('crash'), composition: z.string(), chain: z.array(AttributionLink), note: z.string() }),
    /** The end-to-end criteria were unmet: the first composition along the path whose own criterion failed. */
    z.object({
      kind: z.literal('criterion'),
      composition: z.string(),
      criterion: z.string(),
      chain: z.array(AttributionLink),
      note: z.string(),
    }),
    /** Unmet end to end, yet every composition met its own criteria: the path is kept, no one part is named. */
    z.object({ kind: z.literal('unattributed'), chain: z.array(AttributionLink), note: z.string() }),
  ]),
);
export type Attribution = z.infer<typeof Attribution>;

const Bound = lazySchema(() => z.object({ lower: z.number(), upper: z.number(), confidence: z.number() }));

/** One composition's own results over a trial's attempts, beside the end-to-end verdict. */
export const CompositionResult = lazySchema(() =>
  z.object({
    composition: z.string(),
    owner: z.string(),
    version: z.string(),
    /** Attempts in which it ran at least once; the denominator of its rates. */
    ran: z.number().int().min(0),
    /** Attempts that stopped before it ran. */
    notReached: z.number().int().min(0),
    crashed: z.number().int().min(0),
    invalidOutputs: z.number().int().min(0),
    /** Per own criterion: attempts met over attempts judged, with the exact two-sided Clopper–Pearson interval. */
    criteria: z.array(
      z.object({
        criterion: z.string(),
        met: z.number().int(),
        judged: z.number().int(),
        rate: z.number().nullable(),
        interval: Bound.nullable(),
      }),
    ),
    /** Attempts where it ran, gave valid output and met every own criterion (every pass of a loop). */
    successes: z.number().int().min(0),
    rate: z.number().nullable(),
    interval: Bound.nullable(),
    /** Its own verdict: exact one-sided bounds on `successes / ran` against the Rubric's threshold and α. */
    verdict: Verdict,
    reason: z.string(),
    /** Attempts whose failure was attributed to it. */
    attributed: z.number().int().min(0),
    /**
     * What it did itself over all its passes, from each pass's own observation: passes, workspace file changes (null
     * when no pass had a workspace), tool calls and those that failed, provider receipts, CPU time summed and peak
     * memory (null where never measured). Null in Outcomes written before compositions' own observations were summed.
     */
    observed: z
      .object({
        passes: z.number().int().min(0),
        files: z.number().int().min(0).nullable(),
        tools: z.number().int().min(0),
        toolErrors: z.number().int().min(0),
        receipts: z.number().int().min(0),
        cpuMs: z.number().nullable(),
        peakRssBytes: z.number().nullable(),
      })
      .nullable(),
  }),
);
export type CompositionResult = z.infer<typeof CompositionResult>;

/** A trial through a Composition Suite: the graph pinned, per-attempt attribution, per-composition results. */
export const CompositionSummary = lazySchema(() =>
  z.object({
    suite: CompositionSuite,
    /** Fingerprint of `suite`: pins the graph and each composition's version. */
    fingerprint: z.string(),
    attempts: z.array(
      z.object({ arm: z.string(), index: z.number().int(), stopped: CompositionStop, attribution: Attribution }),
    ),
    results: z.array(CompositionResult),
  }),
);
export type CompositionSummary = z.infer<typeof CompositionSummary>;
