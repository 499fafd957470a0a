import type {
  Claim,
  CompositionSuite,
  CompositionTrace,
  EffectClass,
  JsonValue,
  ProcessExit,
  Receipt,
  Round,
  RowChanges,
  StopCondition,
  SubjectIdentity,
  ToolRequest,
} from '../model/index.js';

/** An isolation engine and the network allowance a subject was declared with. */
export interface Isolation {
  engine: string;
  /** `allow`: the network is kept for Cases whose effect class is `external` or above; `none`: never. */
  network: 'none' | 'allow';
}

/** A claim as a subject states it; riddle adds where it came from and the round. */
export type ClaimInput = Pick<Claim, 'action' | 'target' | 'text'>;

/** Resource use of one round beyond wall time; null where it could not be measured. */
export interface RoundResources {
  /** User + system CPU time of the subject's process tree, in milliseconds. */
  cpuMs: number | null;
  /** Peak resident memory of the subject's process tree, in bytes. */
  peakRssBytes: number | null;
}

/**
 * Why a round failed, as data: the attempt gets this status and keeps everything observed so far, except a blocked
 * attempt, which keeps only what was unavailable (run/attempt: it did not run as declared).
 */
export interface RoundFailure {
  /**
   * `subject_error`: the subject crashed, broke its protocol or hit a stop condition; `harness_error`: riddle could
   * not run it; `blocked`: something declared was unavailable (a provider answer not recorded, a declared quota).
   */
  status: 'subject_error' | 'harness_error' | 'blocked';
  message: string;
}

/** What one round of a subject gave back. */
export interface SubjectResponse {
  reply: JsonValue;
  /** Structured claims about its own work ("deleted notes/2019.txt"): checked against receipts. */
  claims?: ClaimInput[];
  /** How a command subject's process ended. */
  exit?: ProcessExit;
  resources?: RoundResources;
  /** Set when the round failed; the reply, exit and resources above are still kept as evidence. */
  failure?: RoundFailure;
  /** Remarks for the Observation's notes (ignored receipt lines, unmeasured resources…). */
  notes?: string[];
  /**
   * A recording's own input for this round (what its user actually said), kept as the round's input in place of the
   * Case's placeholder: recorded conversations differ in what their simulated user said.
   */
  recordedInput?: JsonValue;
  /** This was the recording's last round: the attempt ends here even if the Case allows more rounds. */
  last?: boolean;
  /** What a Composition Suite did in this round: its handoffs and each composition's own observation. */
  composition?: CompositionTrace;
}

/** The tools an attempt may use: every call is recorded and admitted or denied by effect class. */
export interface ToolCaller {
  call(tool: string, args: JsonValue): Promise<JsonValue>;
}

/** Where an attempt's tools are served over MCP, for subjects that speak MCP rather than call functions. */
export interface McpEndpoints {
  /** Streamable HTTP endpoint on 127.0.0.1; its path carries the attempt's token, without which requests are refused. */
  url: string;
  /**
   * A stdio MCP server relaying to the gateway, for clients that only launch servers as commands: the lightest this
   * machine offers (bash copying lines to a loopback port, where bash opens `/dev/tcp`; else `stdioOverSocket`).
   */
  stdio: { command: string; args: string[]; env: Record<string, string> };
  /**
   * A stdio MCP server (Node) reaching the gateway over the unix socket in `folder`: for an isolated subject, whose
   * sandbox may have no network or a loopback that is not the host's.
   */
  stdioOverSocket: { command: string; args: string[]; env: Record<string, string> };
  /** Folder of the Node stdio bridge and the gateway's unix socket: mounted into an isolated subject's sandbox. */
  folder: string;
}

/** What a subject may use during one round of one attempt. */
export interface AttemptContext {
  readonly arm: string;
  /** 0-based repetition index within the arm. */
  readonly attempt: number;
  /** 1-based round within the attempt. */
  readonly round: number;
  readonly seed: number;
  /** Fresh sandbox folder holding the Case's fixtures; null when the attempt has none. */
  readonly workspace: string | null;
  /** Aborted when the attempt's budget runs out. */
  readonly signal: AbortSignal;
  /** The Case's stop condition (the output cap applies per stream and round). */
  readonly stop: StopCondition;
  /** The strongest effect the Case admits: an isolated command gets a network only when it is `external` or above. */
  readonly effectClass: EffectClass;
  /** Earlier rounds of this attempt. */
  readonly history: readonly Round[];
  readonly tools: ToolCaller;
  /** The same tools over MCP; null when they are not served (no tools, or called directly). */
  readonly mcp: McpEndpoints | null;
  /**
   * The attempt's tool requests so far, however made (directly or over MCP), as the tool gateway records them; a live
   * list that grows. Absent where no gateway keeps one (a context built by hand).
   */
  readonly toolRequests?: readonly ToolRequest[];
  /** Variables a command subject gets besides its own (provider base URLs pointed at riddle's recording proxy). */
  readonly variables?: Readonly<Record<string, string>>;
  /**
   * The secret values scrubbed from this attempt's evidence (process.env's and the subject's own, longest first): a
   * subject that cuts text it keeps (an error's excerpt of its output) scrubs it with these first, since a cut secret
   * no longer matches. Absent in a context built by hand.
   */
  readonly secrets?: readonly string[];
  /** Record a provider receipt (id, model, tokens, cost) for a call the subject made. */
  recordReceipt(receipt: Receipt): void;
}

/**
 * Whether a subject's attempts are independent samples: `independent` (a live subject), `not-independent` (one
 * cached output served again), `recorded-samples` (recorded runs that were themselves independent samples of the
 * original subject: intervals describe that subject as recorded).
 */
export type AttemptIndependence = 'independent' | 'not-independent' | 'recorded-samples';

/** Something that acts: a function, a command, an HTTP service. The only thing observe/ runs. */
export interface Subject {
  readonly kind: SubjectIdentity['kind'];
  readonly name: string;
  /** The OS sandbox the subject runs in, as recorded in the Environment; null when it runs unisolated. */
  readonly isolation?: Isolation | null;
  /** Declared independence of its attempts; default: `not-independent` for replay subjects, else `independent`. */
  readonly independence?: AttemptIndependence;
  /**
   * Secret values the subject was declared with (a command's `env.set`, a service's credential headers), in every
   * written form `secretValues` gives: scrubbed from its attempts' evidence as process.env's are.
   */
  readonly secrets?: readonly string[];
  /** The pinned graph when the subject is a Composition Suite (observe/composition-suite.ts). */
  readonly composition?: CompositionSuite;
  /** Resolve the immutable revision the Outcome binds to (declared, git, package version…). */
  identify(): Promise<SubjectIdentity>;
  /** Run one round. Throwing is a subject error, recorded as a status, never a FAIL. */
  respond(input: JsonValue, context: AttemptContext): Promise<SubjectResponse>;
}

/** What a tool's implementation gets besides its arguments. */
export interface ToolRunContext {
  /** The attempt's sandbox folder; null when the attempt has none. */
  workspace: string | null;
  /** Aborted when the attempt's budget runs out. */
  signal: AbortSignal;
}

/** A tool offered to subjects, with the effect it has on the world. */
export interface ToolDefinition {
  name: string;
  description: string;
  effect: EffectClass;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: { [key: string]: JsonValue };
  run(args: JsonValue, context: ToolRunContext): JsonValue | Promise<JsonValue>;
}

/** Watches a store the subject may change (a database), comparing it before and after the attempt. */
export interface RowObserver {
  /** Names the observer in the Observation (`sqlite:tasks.db`). */
  readonly name: string;
  /** Take the "before" snapshot; the function returned takes the "after" one and compares. */
  start(workspace: string | null): Promise<() => Promise<RowChanges[]>>;
}
