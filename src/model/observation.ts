import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { CompositionTrace } from './composition.js';
import { JsonValue } from './json.js';
import { EffectClass, EvidenceGrade } from './vocabulary.js';

/** A statement the subject makes about its own work ("I deleted notes/2019.txt"), output under test. */
export const Claim = lazySchema(() =>
  z.object({
    /** What was claimed done: a file action, a tool call, a row change, or anything else. */
    action: z.enum(['created', 'modified', 'deleted', 'unchanged', 'called', 'inserted', 'completed', 'other']),
    /** The file path, tool name or table the claim is about. */
    target: z.string(),
    text: z.string(),
    /** `structured`: returned by the subject as data; `extracted`: found in its reply by a declared extractor. */
    source: z.enum(['structured', 'extracted']),
    round: z.number().int().min(1),
  }),
);
export type Claim = z.infer<typeof Claim>;

/** One turn of an attempt: the input given, what came back. */
export const Round = lazySchema(() =>
  z.object({
    index: z.number().int().min(1),
    input: JsonValue,
    reply: JsonValue,
    claims: z.array(Claim),
    /** Wall time of the round, in milliseconds. */
    durationMs: z.number(),
  }),
);
export type Round = z.infer<typeof Round>;

/** Text output kept up to a cap; the hash covers the whole stream. */
export const CapturedOutput = lazySchema(() =>
  z.object({
    text: z.string(),
    bytes: z.number().int(),
    truncated: z.boolean(),
    sha256: z.string(),
  }),
);
export type CapturedOutput = z.infer<typeof CapturedOutput>;

export const ProcessExit = lazySchema(() =>
  z.object({
    code: z.number().int().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    stdout: CapturedOutput,
    stderr: CapturedOutput,
    /** Which declared stop condition killed the process tree, when one did. */
    stopReason: z.enum(['timeout', 'output_limit']).nullable(),
  }),
);
export type ProcessExit = z.infer<typeof ProcessExit>;

export const FileChange = lazySchema(() =>
  z.object({
    path: z.string(),
    change: z.enum(['created', 'modified', 'deleted']),
    /** Size after the change (before, for a deletion), in bytes. */
    size: z.number().int(),
    sha256Before: z.string().nullable(),
    sha256After: z.string().nullable(),
    /** Retained text of a small changed file; large or binary files are kept by hash only. */
    content: z.string().nullable(),
  }),
);
export type FileChange = z.infer<typeof FileChange>;

export const ToolRequest = lazySchema(() =>
  z.object({
    id: z.string(),
    round: z.number().int().min(1),
    tool: z.string(),
    effect: EffectClass,
    arguments: JsonValue,
    admitted: z.boolean(),
    /** Why a request was denied (or admitted under which policy). */
    reason: z.string(),
    result: JsonValue,
    error: z.string().nullable(),
    /** Milliseconds since the attempt started. */
    atMs: z.number(),
  }),
);
export type ToolRequest = z.infer<typeof ToolRequest>;

/** A provider's own record of a call: the most direct evidence of what a model did and cost. */
export const Receipt = lazySchema(() =>
  z.object({
    provider: z.string(),
    id: z.string(),
    model: z.string(),
    inputTokens: z.number().int().nullable(),
    outputTokens: z.number().int().nullable(),
    costUsd: z.number().nullable(),
    latencyMs: z.number().nullable(),
  }),
);
export type Receipt = z.infer<typeof Receipt>;

export const RowChanges = lazySchema(() =>
  z.object({
    source: z.string(),
    table: z.string(),
    inserted: z.array(JsonValue),
    updated: z.array(z.object({ before: JsonValue, after: JsonValue })),
    deleted: z.array(JsonValue),
  }),
);
export type RowChanges = z.infer<typeof RowChanges>;

export const Resources = lazySchema(() =>
  z.object({
    wallMs: z.number(),
    cpuMs: z.number().nullable(),
    peakRssBytes: z.number().nullable(),
  }),
);
export type Resources = z.infer<typeof Resources>;

/**
 * A part of the Observation that riddle watched directly, with the grade of that evidence. A part no observer
 * watched is missing, not empty: an empty `files` means "no change" only when the workspace observer is listed.
 */
export const ObserverRecord = lazySchema(() =>
  z.object({
    part: z.enum(['exit', 'files', 'toolRequests', 'rows', 'resources']),
    /** `workspace`, `tool-gateway`, `process`, `sqlite:<file>`…. */
    observer: z.string(),
    grade: EvidenceGrade,
  }),
);
export type ObserverRecord = z.infer<typeof ObserverRecord>;

/** Everything an attempt did, retained before any evaluator runs. */
export const Observation = lazySchema(() =>
  z.object({
    rounds: z.array(Round),
    exit: ProcessExit.nullable(),
    files: z.array(FileChange),
    toolRequests: z.array(ToolRequest),
    receipts: z.array(Receipt),
    rows: z.array(RowChanges),
    resources: Resources,
    /** The parts riddle watched directly; null in records written before observers were listed. */
    observers: z.array(ObserverRecord).nullable(),
    /** What the observers noticed beside the evidence: ignored receipt lines, sampling limits, redactions. */
    notes: z.array(z.string()),
    /** The handoffs and each composition's own observation, when the subject is a Composition Suite; else null. */
    composition: z.lazy(() => CompositionTrace).nullable(),
  }),
);
export type Observation = z.infer<typeof Observation>;

/**
 * An Observation of one reply to one input and nothing else (no files, tools, receipts or process): what an
 * evaluator sees of a labelled reply when it is calibrated or tested.
 */
export function replyObservation(input: JsonValue, reply: JsonValue): Observation {
  return {
    rounds: [{ index: 1, input, reply, claims: [], durationMs: 0 }],
    exit: null,
    files: [],
    toolRequests: [],
    receipts: [],
    rows: [],
    resources: { wallMs: 0, cpuMs: null, peakRssBytes: null },
    observers: null,
    notes: [],
    composition: null,
  };
}
