import { clearTimeout, setTimeout } from 'node:timers';
import { performance } from 'node:perf_hooks';
import {
  Claim,
  clippedText,
  errorText,
  jsonProblem,
  Receipt,
  type Case,
  type Clock,
  type CompositionTrace,
  type JsonValue,
  type Observation,
  type ProcessExit,
  type Round,
  type RowChanges,
} from '../model/index.js';
import { runsA } from './composition-subject.js';
import {
  diffSnapshots,
  SnapshotBoundError,
  snapshotFolder,
  WORKSPACE_BOUNDS,
  type FolderSnapshot,
  type SnapshotBounds,
} from './file-snapshot.js';
import { serveToolsOverMcp, type McpToolServer } from './mcp-server.js';
import { AttemptAbort, whenSignalAborts, withAttemptSignal } from './attempt-abort.js';
import { endAttemptBudget, startAttemptBudget } from './attempt-budget.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { attemptSecretValues, redactData, redactText } from './secrets.js';
import type {
  AttemptContext,
  RoundFailure,
  RoundResources,
  RowObserver,
  Subject,
  SubjectResponse,
  ToolDefinition,
} from './subject.js';
import { createToolGateway, type ToolGateway, type ToolRequestBounds } from './tool-gateway.js';

/** Largest changed file whose text is retained in the Observation by default, in bytes. */
export const DEFAULT_RETAIN_FILE_BYTES = 32 * 1024;
/** How long a subject may take to hand back its evidence once its budget ran out, by default, in milliseconds. */
export const DEFAULT_ABORT_GRACE_MS = 5000;

export interface AttemptPlan {
  arm: string;
  /** 0-based repetition index within the arm. */
  attempt: number;
  seed: number;
  case: Case;
  subject: Subject;
  tools: readonly ToolDefinition[];
  clock: Clock;
  /**
   * Absolute path of the Case's fixture folder, copied into a fresh sandbox for each attempt. Command subjects
   * get a sandbox (empty without fixtures) either way, so they never run in the project itself.
   */
  fixtures?: string | null;
  /** Keep the sandbox for inspection: the result's `sandbox` must then be discarded by the caller when the attempt passed. */
  keepFailedSandbox?: boolean;
  /** Stores compared before and after the attempt (e.g. `sqliteObserver`). */
  observers?: readonly RowObserver[];
  /**
   * `mcp`: also serve the tools over MCP on loopback (context.mcp); `direct`: only through context.tools.
   * Default: `mcp` for command and HTTP subjects (or Composition Suites with such parts) offered tools, `direct` otherwise.
   */
  toolServer?: 'mcp' | 'direct';
  /** Largest changed file whose text is retained, in bytes (default DEFAULT_RETAIN_FILE_BYTES); larger ones by hash. */
  retainFileBytes?: number;
  /** What is read of the workspace at most (default WORKSPACE_BOUNDS). */
  workspaceBounds?: SnapshotBounds;
  /** What is recorded of the tool requests at most (default TOOL_REQUEST_BOUNDS). */
  toolRequestBounds?: ToolRequestBounds;
  /** How long to wait for the subject's evidence after its budget ran out, in ms (default DEFAULT_ABORT_GRACE_MS). */
  abortGraceMs?: number;
  /** Aborting it stops the subject as its budget running out would (the run was interrupted). */
  signal?: AbortSignal;
}

/** A sandbox kept after its attempt: print `path` for a failed attempt, `discard()` it otherwise. */
export interface KeptSandbox {
  readonly path: string;
  discard(): Promise<void>;
}

/** What observing one attempt gave: a status and, when the subject ran, its retained Observation. */
export interface ObservedAttempt {
  status: 'completed' | 'subject_error' | 'harness_error' | 'blocked';
  observation: Observation | null;
  error: { where: string; message: string } | null;
  /** Set only when the plan asked to keep failed sandboxes. */
  sandbox?: KeptSandbox | null;
}

type ObserverRecord = NonNullable<Observation['observers']>[number];

// A subject may throw anything, even a value whose conversion to text throws: that is still the subject's error.
const message = errorText;

const CLAIM_ACTIONS: readonly string[] = Claim.shape.action.options;

/** Why a subject's structured claims are not claims riddle can check, naming where; null when they are. */
function claimsProblem(claims: unknown): string | null {
  if (claims === undefined) return null;
  if (!Array.isArray(claims)) return `claims is ${claims === null ? 'null' : `a ${typeof claims}`}, not a list`;
  for (const [i, claim] of claims.entries()) {
    if (typeof claim !== 'object' || claim === null) return `claims[${i}] is ${String(claim)}, not a claim`;
    const { action, target, text } = claim as Record<string, unknown>;
    if (typeof action !== 'string' || !CLAIM_ACTIONS.includes(action))
      return `claims[${i}].action is ${JSON.stringify(action) ?? 'undefined'}, not one of ${CLAIM_ACTIONS.join(', ')}`;
    if (typeof target !== 'string') return `claims[${i}].target is not a string`;
    if (typeof text !== 'string') return `claims[${i}].text is not a string`;
  }
  return null;
}

/** What the attempt holds and must release whatever happens. */
interface Held {
  sandbox: Sandbox | null;
  server: McpToolServer | null;
  gateway: ToolGateway | null;
}

/**
 * Run one attempt of one arm and record what the subject did, round by round, before anything judges it: replies
 * and claims, process exit, workspace file changes, tool requests with their admission, provider receipts,
 * database rows and resources. A subject that throws, crashes or exhausts its budget is a `subject_error`; fixtures
 * or observers that fail are a `harness_error`. Whatever was observed is kept either way, with secret values
 * scrubbed. The sandbox, tool server and subject processes are released before this returns.
 */
export async function observeAttempt(plan: AttemptPlan): Promise<ObservedAttempt> {
  const held: Held = { sandbox: null, server: null, gateway: null };
  // process.env's secrets and those the subject was declared with (a command's env.set, a service's headers).
  const secrets = attemptSecretValues(plan.subject.secrets);
  let result: ObservedAttempt;
  try {
    // Subjects may print, write or pass on secrets they were given: scrub the evidence before anyone keeps it.
    result = redactData(await observe(plan, held, secrets), secrets);
  } catch (error) {
    result = {
      status: 'harness_error',
      observation: null,
      error: { where: 'riddle observe', message: redactText(message(error), secrets) },
    };
  }
  held.gateway?.close();
  const released: string[] = [];
  try {
    // Awaited only when there is one: `await undefined` makes a promise for every attempt.
    if (held.server) await held.server.close();
  } catch (error) {
    released.push(`could not stop the MCP tool server: ${message(error)}`);
  }
  const { sandbox } = held;
  if (sandbox !== null) {
    if (plan.keepFailedSandbox) result.sandbox = { path: sandbox.path, discard: () => sandbox.remove() };
    else {
      try {
        await sandbox.remove();
      } catch (error) {
        released.push(`could not remove the sandbox ${sandbox.path}: ${message(error)}`);
      }
    }
  }
  if (released.length > 0 && result.status === 'completed') {
    result = { ...result, status: 'harness_error', error: { where: 'cleanup', message: released.join('; ') } };
  }
  return result;
}

async function observe(plan: AttemptPlan, held: Held, secrets: readonly string[]): Promise<ObservedAttempt> {
  const retain = plan.retainFileBytes ?? DEFAULT_RETAIN_FILE_BYTES;
  const bounds = plan.workspaceBounds ?? WORKSPACE_BOUNDS;
  const notes: string[] = [];
  const observers: ObserverRecord[] = [];
  const abort = new AttemptAbort();
  const { signal } = plan;
  const stopWaiting = signal ? whenSignalAborts(signal, () => abort.abort(signal.reason)) : null;
  // Tool request times count from the first round: setup is riddle's time, not the subject's.
  let roundsStarted = plan.clock.now();

  // Setup: a failure here is the harness's or the fixtures', and the subject never runs.
  let stage = 'workspace';
  let filesBefore: FolderSnapshot | null = null;
  const finishers: { name: string; finish: () => Promise<RowChanges[]> }[] = [];
  try {
    if ((plan.fixtures ?? null) !== null || runsA(plan.subject, 'command')) {
      held.sandbox = await createSandbox(plan.fixtures ?? null, `${plan.arm}-${plan.attempt}`);
    }
    const workspace = held.sandbox?.path ?? null;
    for (const observer of plan.observers ?? []) {
      stage = `observer ${observer.name}`;
      finishers.push({ name: observer.name, finish: await observer.start(workspace) });
    }
    stage = 'workspace';
    if (workspace !== null) filesBefore = await snapshotFolder(workspace, retain, bounds);
    held.gateway = createToolGateway({
      tools: plan.tools,
      maxEffect: plan.case.effectClass,
      context: withAttemptSignal({ workspace }, abort),
      elapsedMs: () => plan.clock.now() - roundsStarted,
      ...(plan.toolRequestBounds ? { bounds: plan.toolRequestBounds } : {}),
    });
    const serve =
      plan.toolServer ?? (plan.tools.length > 0 && runsA(plan.subject, 'command', 'http') ? 'mcp' : 'direct');
    stage = 'MCP tool server';
    // An unisolated command subject reaches the gateway over loopback: the Node bridge's socket is made only if read.
    const unisolatedCommand = plan.subject.kind === 'command' && (plan.subject.isolation ?? null) === null;
    if (serve === 'mcp')
      held.server = await serveToolsOverMcp(held.gateway, { socketBridge: unisolatedCommand ? 'when-read' : 'now' });
  } catch (error) {
    stopWaiting?.();
    return { status: 'harness_error', observation: null, error: { where: stage, message: message(error) } };
  }
  const gateway = held.gateway;
  const workspace = held.sandbox?.path ?? null;

  // Rounds, under the Case's budget.
  const receipts: Receipt[] = [];
  const recordReceipt = (receipt: Receipt) => {
    const parsed = Receipt.safeParse(receipt);
    if (parsed.success) receipts.push(parsed.data);
    else
      notes.push(
        `receipt ignored: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
  };
  roundsStarted = plan.clock.now();
  const budget = startAttemptBudget(plan.case.stop.timeoutMs, () =>
    abort.abort(new Error(`budget of ${plan.case.stop.timeoutMs} ms exceeded`)),
  );
  // try…finally rather than Promise#finally, which makes three promises more for every attempt.
  let played: RoundsPlayed;
  try {
    played = await playRounds(plan, {
      gateway,
      workspace,
      abort,
      mcp: held.server?.endpoints ?? null,
      recordReceipt,
      secrets,
    });
  } finally {
    endAttemptBudget(budget);
    stopWaiting?.();
  }
  // A subject that never yields holds off the budget's timer: past its end, it is over budget all the same.
  if (played.failure === null && performance.now() > budget.endsAt)
    played.failure = {
      status: 'subject_error',
      message: `exceeded the case's budget of ${plan.case.stop.timeoutMs} ms`,
    };
  gateway.close();
  notes.push(...played.notes);
  // Where the subject went past what riddle records (its tool requests, its workspace): its error, the first named.
  const pastBounds: { where: string; message: string }[] = [];
  if (gateway.overflow !== null)
    pastBounds.push({
      where: 'tools',
      message: `the subject made more tool requests than riddle records: ${gateway.overflow.reason}; the first ${gateway.requests.length} are kept, and the ${gateway.overflow.refused} after them were refused without being recorded`,
    });

  // After: compare what the subject left with what it found.
  const afterErrors: { where: string; message: string }[] = [];
  let files: Observation['files'] = [];
  if (workspace !== null && filesBefore !== null) {
    try {
      files = diffSnapshots(filesBefore, await snapshotFolder(workspace, retain, bounds));
      observers.push({ part: 'files', observer: 'workspace', grade: 'receipt' });
    } catch (error) {
      // More than is read: the subject's doing, and no file change is kept.
      if (error instanceof SnapshotBoundError)
        pastBounds.push({
          where: 'workspace',
          message: `the subject left more in its workspace than riddle reads: ${error.message}; no file change is kept`,
        });
      else afterErrors.push({ where: 'workspace', message: message(error) });
    }
  }
  const rows: RowChanges[] = [];
  for (const { name, finish } of finishers) {
    try {
      rows.push(...(await finish()));
      observers.push({ part: 'rows', observer: name, grade: 'receipt' });
    } catch (error) {
      afterErrors.push({ where: `observer ${name}`, message: message(error) });
    }
  }
  if (plan.tools.length > 0) observers.push({ part: 'toolRequests', observer: 'tool-gateway', grade: 'receipt' });
  if (played.exit !== null) observers.push({ part: 'exit', observer: 'process', grade: 'observation' });
  observers.push({
    part: 'resources',
    observer: plan.subject.kind === 'command' ? 'process' : 'clock',
    grade: 'observation',
  });
  observers.sort((a, b) => (a.part < b.part ? -1 : a.part > b.part ? 1 : a.observer < b.observer ? -1 : 1));

  const observation: Observation = {
    rounds: played.rounds,
    exit: played.exit,
    files,
    toolRequests: [...gateway.requests],
    receipts: [...receipts],
    rows,
    resources: { wallMs: played.wallMs, ...played.resources },
    observers,
    notes,
    composition: played.composition,
  };
  const noteAfter = (failures: readonly { where: string; message: string }[]) => {
    for (const after of failures) notes.push(`${after.where} failed after the subject ran: ${after.message}`);
  };
  if (played.failure !== null) {
    // The subject's own failure explains the attempt best; observers failing after it are kept as notes.
    noteAfter([...pastBounds, ...afterErrors]);
    return {
      status: played.failure.status,
      observation,
      error: { where: `subject ${plan.subject.name}`, message: played.failure.message },
    };
  }
  const [firstPast, ...otherPast] = pastBounds;
  if (firstPast !== undefined) {
    noteAfter([...otherPast, ...afterErrors]);
    return { status: 'subject_error', observation, error: firstPast };
  }
  const [first] = afterErrors;
  if (first !== undefined) return { status: 'harness_error', observation, error: first };
  return { status: 'completed', observation, error: null };
}

interface RoundsPlayed {
  rounds: Round[];
  exit: ProcessExit | null;
  resources: RoundResources;
  /** Time spent in the subject's rounds, in milliseconds. */
  wallMs: number;
  failure: RoundFailure | null;
  notes: string[];
  /** A Composition Suite's trace, every round's steps and handoffs in order; null for other subjects. */
  composition: CompositionTrace | null;
}

type Settled = { kind: 'done'; response: SubjectResponse } | { kind: 'threw'; error: unknown } | { kind: 'abandoned' };

/** Wait for a round; once the budget is out, wait at most `graceMs` more for the subject to hand back its evidence. */
function settle(pending: Promise<SubjectResponse>, abort: AttemptAbort, graceMs: number): Promise<Settled> {
  return new Promise((resolve) => {
    let grace: NodeJS.Timeout | undefined;
    const stopWaiting = abort.whenAborted(() => {
      grace = setTimeout(() => resolve({ kind: 'abandoned' }), graceMs);
    });
    const end = (settled: Settled) => {
      clearTimeout(grace);
      stopWaiting();
      resolve(settled);
    };
    pending.then(
      (response) => end({ kind: 'done', response }),
      (error: unknown) => end({ kind: 'threw', error }),
    );
  });
}

async function playRounds(
  plan: AttemptPlan,
  io: Pick<AttemptContext, 'workspace' | 'mcp' | 'recordReceipt'> & {
    gateway: ToolGateway;
    abort: AttemptAbort;
    secrets: readonly string[];
  },
): Promise<RoundsPlayed> {
  const inputs: JsonValue[] = [plan.case.input, ...plan.case.followUps].slice(0, plan.case.stop.maxRounds);
  const graceMs = plan.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
  const overBudget = `exceeded the case's budget of ${plan.case.stop.timeoutMs} ms`;
  const played: RoundsPlayed = {
    rounds: [],
    exit: null,
    resources: { cpuMs: null, peakRssBytes: null },
    wallMs: 0,
    failure: null,
    notes: [],
    composition: null,
  };
  for (const [i, input] of inputs.entries()) {
    const round = i + 1;
    io.gateway.setRound(round);
    // The signal is made only when a subject that listens for its budget reads it (observe/attempt-abort).
    const context: AttemptContext = withAttemptSignal(
      {
        arm: plan.arm,
        attempt: plan.attempt,
        round,
        seed: plan.seed,
        workspace: io.workspace,
        stop: plan.case.stop,
        effectClass: plan.case.effectClass,
        history: played.rounds.length === 0 ? [] : structuredClone(played.rounds),
        tools: io.gateway,
        mcp: io.mcp,
        toolRequests: io.gateway.requests,
        recordReceipt: io.recordReceipt,
        secrets: io.secrets,
      },
      io.abort,
    );
    const roundStarted = plan.clock.now();
    const settled = await settle(
      // A copy of an object input: one the subject changed would be the next attempt's input, and the pinned Case's.
      Promise.resolve().then(() =>
        plan.subject.respond(typeof input === 'object' && input !== null ? structuredClone(input) : input, context),
      ),
      io.abort,
      graceMs,
    );
    const durationMs = plan.clock.now() - roundStarted;
    played.wallMs += durationMs;
    if (settled.kind === 'abandoned') {
      played.failure = {
        status: 'subject_error',
        message: `${overBudget} and did not stop within ${graceMs} ms of being told to`,
      };
      break;
    }
    if (settled.kind === 'threw') {
      // Kept as long as the Case keeps output: the message is stored with the attempt, its reason and its why alike.
      // Scrubbed before it is cut: a secret cut through would no longer be found.
      const thrown = clippedText(redactText(message(settled.error), io.secrets), plan.case.stop.maxOutputBytes);
      played.failure = { status: 'subject_error', message: io.abort.aborted ? `${overBudget}: ${thrown}` : thrown };
      break;
    }
    const { response } = settled;
    // A subject that acts and answers nothing (its evidence is what it did) replied null, as JSON reads a missing value.
    const reply = response.reply === undefined ? null : response.reply;
    // What the subject handed back is checked here, where it is the subject's: a reply JSON cannot hold failed the
    // judging or the record later, and a claim of an unknown action the reports.
    const problem = jsonProblem(reply, 'reply') ?? claimsProblem(response.claims);
    if (problem !== null) {
      played.rounds.push({ index: round, input: response.recordedInput ?? input, reply: null, claims: [], durationMs });
      played.failure = { status: 'subject_error', message: `the subject's answer cannot be recorded: ${problem}` };
      break;
    }
    played.rounds.push({
      index: round,
      input: response.recordedInput ?? input,
      reply,
      claims: (response.claims ?? []).map(({ action, target, text }) => ({
        action,
        target,
        text,
        source: 'structured' as const,
        round,
      })),
      durationMs,
    });
    played.exit = response.exit ?? played.exit;
    if (response.resources) {
      const { cpuMs, peakRssBytes } = response.resources;
      played.resources = {
        cpuMs: cpuMs === null ? played.resources.cpuMs : (played.resources.cpuMs ?? 0) + cpuMs,
        peakRssBytes:
          peakRssBytes === null
            ? played.resources.peakRssBytes
            : Math.max(played.resources.peakRssBytes ?? 0, peakRssBytes),
      };
    }
    played.notes.push(...(response.notes ?? []));
    if (response.composition) {
      const before = played.composition;
      played.composition = before
        ? {
            ...response.composition,
            steps: [...before.steps, ...response.composition.steps],
            handoffs: [...before.handoffs, ...response.composition.handoffs],
          }
        : response.composition;
    }
    if (response.failure) {
      played.failure = response.failure;
      break;
    }
    if (response.last) break;
    if (io.abort.aborted) {
      played.failure = { status: 'subject_error', message: overBudget };
      break;
    }
  }
  return played;
}
