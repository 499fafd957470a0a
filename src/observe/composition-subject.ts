import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import {
  canonicalJson,
  Receipt,
  sha256,
  type Claim,
  type CompositionStep,
  type CompositionStop,
  type CompositionTrace,
  type FileChange,
  type HandoffObservation,
  type JsonValue,
  type OwnCriterionResult,
  type Payload,
  type ProcessExit,
  type SchemaCheck,
} from '../model/index.js';
import type { Composition } from './composition.js';
import { diffSnapshots, snapshotFolder, WORKSPACE_BOUNDS, type FolderSnapshot } from './file-snapshot.js';
import type { CompositionGraph, HandoffDeclaration } from './composition-suite.js';
import type { AttemptContext, RoundFailure, Subject, SubjectResponse } from './subject.js';

/** Schema problems kept per check: enough to act on, bounded against hostile payloads. */
const MAX_ISSUES = 10;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A value as a retained payload: fingerprinted whole, kept when small enough; null json when it is not JSON. */
function payloadOf(value: unknown, cap: number): { payload: Payload; json: JsonValue | null; notJson: string | null } {
  let text: string;
  try {
    text = canonicalJson(value);
  } catch (error) {
    return {
      payload: { sha256: sha256(''), bytes: 0, value: null, truncated: true },
      json: null,
      notJson: message(error),
    };
  }
  if (text === '')
    return {
      payload: { sha256: sha256(''), bytes: 0, value: null, truncated: true },
      json: null,
      notJson: `gave ${typeof value}, not JSON`,
    };
  const json = JSON.parse(text) as JsonValue;
  const bytes = Buffer.byteLength(text);
  return {
    payload: { sha256: sha256(text), bytes, value: bytes <= cap ? json : null, truncated: bytes > cap },
    json,
    notJson: null,
  };
}

function schemaCheck(schema: z.ZodType, value: JsonValue | null, notJson: string | null, side: string): SchemaCheck {
  if (notJson !== null) return { result: 'invalid', issues: [{ path: '(root)', message: `${side}: ${notJson}` }] };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { result: 'valid' };
  return {
    result: 'invalid',
    issues: parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
      path: issue.path.map(String).join('.') || '(root)',
      message: `${side}: ${issue.message}`,
    })),
  };
}

/** Both sides of a handoff: the producer's promised output type, then the consumer's input type. */
function joinChecks(...checks: SchemaCheck[]): SchemaCheck {
  const issues = checks.flatMap((c) => (c.result === 'invalid' ? c.issues : []));
  return issues.length === 0 ? { result: 'valid' } : { result: 'invalid', issues: issues.slice(0, MAX_ISSUES) };
}

function memberAt(value: JsonValue | null, path: string | undefined): JsonValue | null {
  if (path === undefined) return value;
  let current: JsonValue | null = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return null;
    current = current[key] ?? null;
  }
  return current;
}

function judgeOwn(node: Composition, input: unknown, output: unknown): OwnCriterionResult[] {
  return Object.entries(node.criteria)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([criterion, check]) => {
      try {
        const verdict = check({ input, output });
        if (typeof verdict === 'boolean') return { criterion, result: verdict ? 'met' : 'unmet', note: '' };
        if (typeof verdict === 'object' && verdict !== null && typeof verdict.met === 'boolean')
          return { criterion, result: verdict.met ? 'met' : 'unmet', note: String(verdict.note ?? '') };
        return { criterion, result: 'error', note: `returned ${typeof verdict}; return a boolean or { met, note }` };
      } catch (error) {
        return { criterion, result: 'error', note: message(error) };
      }
    });
}

interface Inbox {
  producer: string | null;
  handoff: HandoffDeclaration | null;
  /** The payload as the consumer's input schema parsed it. */
  input: unknown;
}

/**
 * Run a Composition Suite's graph once on a round's input: compositions in topological order, each handing its
 * output on after checking it against its own output type and the consumer's input type; a declared loop sends the
 * producer's output back while its condition holds, within its bound. The graph stops at the first crash or
 * invalid handoff. Everything is kept in the trace: each handoff's payload (fingerprint and retained value) and
 * check, each composition's own observation and criteria, and where it stopped.
 */
export async function runComposition(
  graph: CompositionGraph,
  input: JsonValue,
  context: AttemptContext,
): Promise<SubjectResponse> {
  const { record } = graph;
  const steps: CompositionStep[] = [];
  const handoffs: HandoffObservation[] = [];
  const claims: NonNullable<SubjectResponse['claims']> = [];
  const notes: string[] = [];
  const iterations = new Map<string, number>();
  const loopsTaken = new Map<HandoffDeclaration, number>();
  const inbox = new Map<string, Inbox>();
  let lastExit: ProcessExit | null = null;
  let reply: JsonValue = null;
  let stopped: CompositionStop = { kind: 'finished' };
  let failure: RoundFailure | undefined;

  const node = (name: string): Composition => {
    const found = graph.nodes.get(name);
    if (!found) throw new Error(`composition ${name} is not in the graph`);
    return found;
  };

  /** Hand `raw` from producer to consumer (null: the attempt's reply); false when the handoff broke its type. */
  const handOn = (
    producer: Composition | null,
    consumer: string | null,
    raw: JsonValue | null,
    notJson: string | null,
    handoff: HandoffDeclaration | null,
  ): boolean => {
    const iteration = producer ? (iterations.get(producer.name) ?? 1) : 1;
    const value = memberAt(raw, handoff?.map);
    const { payload } = payloadOf(value, graph.retainPayloadBytes);
    const produced = producer ? schemaCheck(producer.output, raw, notJson, `${producer.name}'s output type`) : null;
    const target = consumer ? node(consumer) : null;
    const accepted = target ? target.input.safeParse(value) : null;
    // Output that is not JSON has no member to hand on: the producer's check already says so.
    const consumed =
      target && notJson === null ? schemaCheck(target.input, value, null, `${target.name}'s input type`) : null;
    const check = joinChecks(...[produced, consumed].filter((c): c is SchemaCheck => c !== null));
    handoffs.push({
      producer: producer?.name ?? null,
      consumer,
      round: context.round,
      iteration,
      payload,
      check,
    });
    if (check.result === 'invalid') {
      stopped = { kind: 'invalid-handoff', producer: producer?.name ?? null, consumer, iteration };
      failure = {
        status: producer ? 'subject_error' : 'harness_error',
        message: `handoff ${producer?.name ?? "the attempt's input"} → ${consumer ?? 'the reply'} broke its type: ${check.issues
          .slice(0, 3)
          .map((i) => `${i.path}: ${i.message}`)
          .join('; ')}`,
      };
      return false;
    }
    if (target && accepted?.success)
      inbox.set(target.name, { producer: producer?.name ?? null, handoff, input: accepted.data });
    return true;
  };

  if (!handOn(null, record.entry, input, null, null)) return respond();

  for (let pc = 0; pc < graph.order.length; pc += 1) {
    const name = graph.order[pc] as string;
    const waiting = inbox.get(name);
    if (waiting === undefined) continue;
    inbox.delete(name);
    const current = node(name);
    const iteration = (iterations.get(name) ?? 0) + 1;
    iterations.set(name, iteration);
    const step = await runStep(current, waiting.input, iteration, context, graph.retainPayloadBytes);
    steps.push(step.record);
    claims.push(...step.claims);
    lastExit = step.record.observation.exit ?? lastExit;
    if (step.record.status === 'crashed') {
      stopped = { kind: 'crashed', composition: name, iteration };
      failure = {
        status: step.status,
        message: `composition ${name} (${current.owner}) crashed: ${step.record.error ?? 'no reason given'}`,
      };
      return respond();
    }
    const parsedOutput = current.output.safeParse(step.json);
    const loop = graph.loops.find((l) => {
      if (l.from !== name || (loopsTaken.get(l) ?? 0) >= (l.loop?.max ?? 0) || !parsedOutput.success) return false;
      try {
        return l.loop?.while(parsedOutput.data) === true;
      } catch (error) {
        notes.push(`loop ${l.from} → ${l.to}: while() threw, so the loop was not taken: ${message(error)}`);
        return false;
      }
    });
    if (loop) {
      loopsTaken.set(loop, (loopsTaken.get(loop) ?? 0) + 1);
      if (!handOn(current, loop.to, step.json, step.notJson, loop)) return respond();
      pc = graph.order.indexOf(loop.to) - 1;
      continue;
    }
    const onward = record.handoffs.filter((h) => h.from === name && h.loop === null);
    for (const h of onward) {
      const declared = graph.feeds.get(h.to) ?? null;
      if (!handOn(current, h.to, step.json, step.notJson, declared)) return respond();
    }
    if (name === record.exit) {
      if (!handOn(current, null, step.json, step.notJson, null)) return respond();
      reply = step.json;
    }
  }
  return respond();

  function respond(): SubjectResponse {
    const trace: CompositionTrace = {
      suite: { name: record.name, version: record.version, fingerprint: graph.fingerprint },
      steps,
      handoffs,
      stopped,
    };
    return {
      reply,
      claims,
      notes,
      composition: trace,
      ...(lastExit ? { exit: lastExit } : {}),
      ...(failure ? { failure } : {}),
    };
  }
}

interface StepRun {
  record: CompositionStep;
  /** The output as JSON (null when it is not JSON or the composition crashed). */
  json: JsonValue | null;
  notJson: string | null;
  claims: Pick<Claim, 'action' | 'target' | 'text'>[];
  /** The attempt's status if this step stops the graph. */
  status: RoundFailure['status'];
}

async function runStep(
  current: Composition,
  input: unknown,
  iteration: number,
  context: AttemptContext,
  retainBytes: number,
): Promise<StepRun> {
  const called: CompositionStep['observation']['tools'] = [];
  // Its own tool requests: those the gateway recorded while it ran (compositions run one at a time), which include a
  // command's or a service's requests over MCP; by its direct calls only where no gateway keeps a record.
  const recorded = context.toolRequests;
  const recordedBefore = recorded?.length ?? 0;
  const tools = (): CompositionStep['observation']['tools'] =>
    recorded === undefined
      ? called
      : recorded.slice(recordedBefore).map((request) => ({
          tool: request.tool,
          error: request.admitted ? request.error : `tool request denied: ${request.tool}: ${request.reason}`,
        }));
  const receipts: Receipt[] = [];
  const ownContext: AttemptContext = {
    ...context,
    tools: {
      async call(tool, args) {
        try {
          const result = await context.tools.call(tool, args);
          called.push({ tool, error: null });
          return result;
        } catch (error) {
          called.push({ tool, error: message(error) });
          throw error;
        }
      },
    },
    recordReceipt(receipt) {
      const parsed = Receipt.safeParse(receipt);
      if (parsed.success) receipts.push(parsed.data);
      context.recordReceipt(receipt);
    },
  };
  // Its own writes: the attempt's workspace before and after it ran (compositions run one at a time).
  const workspace = context.workspace;
  const before = workspace === null ? null : await snapshot(workspace, retainBytes);
  const started = performance.now();
  const base = {
    composition: current.name,
    owner: current.owner,
    version: current.version,
    round: context.round,
    iteration,
  };
  let response: SubjectResponse;
  try {
    response = await current.subject.respond(input as JsonValue, ownContext);
  } catch (error) {
    const durationMs = performance.now() - started;
    return crashed(message(error), 'subject_error', null, [], durationMs, await filesSince(), null);
  }
  const durationMs = performance.now() - started;
  const files = await filesSince();
  const notes = response.notes ?? [];
  const resources = response.resources ?? null;
  if (response.failure)
    return crashed(
      response.failure.message,
      response.failure.status,
      response.exit ?? null,
      notes,
      durationMs,
      files,
      resources,
    );
  const { payload, json, notJson } = payloadOf(response.reply, retainBytes);
  const outputCheck = schemaCheck(current.output, json, notJson, `${current.name}'s output type`);
  const parsed = current.output.safeParse(json);
  const criteria = outputCheck.result === 'valid' && parsed.success ? judgeOwn(current, input, parsed.data) : [];
  return {
    record: {
      ...base,
      status: 'completed',
      error: null,
      output: payload,
      outputCheck,
      criteria,
      observation: observation(response.exit ?? null, notes, durationMs, files, resources),
    },
    json,
    notJson,
    claims: response.claims ?? [],
    status: 'subject_error',
  };

  /** The workspace's changes since `before`; a walk that fails is noted, not taken for "no change". */
  async function filesSince(): Promise<FileChange[] | null> {
    if (workspace === null || before === null) return null;
    const after = await snapshot(workspace, retainBytes);
    return after === null ? null : diffSnapshots(before, after);
  }

  function observation(
    exit: ProcessExit | null,
    stepNotes: string[],
    durationMs: number,
    files: FileChange[] | null,
    resources: SubjectResponse['resources'] | null,
  ): CompositionStep['observation'] {
    return {
      durationMs,
      tools: tools(),
      receipts,
      exit,
      notes: stepNotes,
      files,
      resources: { cpuMs: resources?.cpuMs ?? null, peakRssBytes: resources?.peakRssBytes ?? null },
    };
  }

  function crashed(
    error: string,
    status: RoundFailure['status'],
    exit: ProcessExit | null,
    stepNotes: string[],
    durationMs: number,
    files: FileChange[] | null,
    resources: SubjectResponse['resources'] | null,
  ): StepRun {
    return {
      record: {
        ...base,
        status: 'crashed',
        error,
        output: null,
        outputCheck: null,
        criteria: [],
        observation: observation(exit, stepNotes, durationMs, files, resources),
      },
      json: null,
      notJson: null,
      claims: [],
      status,
    };
  }
}

/**
 * A snapshot of the workspace, or null when it cannot be walked or holds more than riddle reads (the step's files are
 * then unknown, not empty).
 */
async function snapshot(workspace: string, retainBytes: number): Promise<FolderSnapshot | null> {
  try {
    return await snapshotFolder(workspace, retainBytes, WORKSPACE_BOUNDS);
  } catch {
    return null;
  }
}

/**
 * Whether the subject runs one of `kinds`: itself, or one of its compositions (a Composition Suite is an in-process
 * subject around its parts). A command runs in the attempt's workspace, so its attempts get one even without fixtures;
 * a command or a service reaches the attempt's tools over MCP, so they are served there.
 */
export function runsA(subject: Pick<Subject, 'kind' | 'composition'>, ...kinds: Subject['kind'][]): boolean {
  return (
    kinds.includes(subject.kind) ||
    (subject.composition?.compositions.some((c) => kinds.includes(c.subject.kind)) ?? false)
  );
}
