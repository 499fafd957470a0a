import type { Claim, EffectClass, JsonValue, Receipt, Round, SubjectIdentity } from '../model/index.js';

/** A claim as a subject states it; riddle adds where it came from and the round. */
export type ClaimInput = Pick<Claim, 'action' | 'target' | 'text'>;

/** What one round of a subject gave back. */
export interface SubjectResponse {
  reply: JsonValue;
  /** Structured claims about its own work ("deleted notes/2019.txt"): checked against receipts. */
  claims?: ClaimInput[];
}

/** The tools an attempt may use: every call is recorded and admitted or denied by effect class. */
export interface ToolCaller {
  call(tool: string, args: JsonValue): Promise<JsonValue>;
}

/** What a subject may use during one round of one attempt. */
export interface AttemptContext {
  readonly arm: string;
  /** 0-based repetition index within the arm. */
  readonly attempt: number;
  /** 1-based round within the attempt. */
  readonly round: number;
  readonly seed: number;
  /** Fresh sandbox folder holding the Case's fixtures, or null when the Case has none. */
  readonly workspace: string | null;
  /** Aborted when the attempt's budget runs out. */
  readonly signal: AbortSignal;
  /** Earlier rounds of this attempt. */
  readonly history: readonly Round[];
  readonly tools: ToolCaller;
  /** Record a provider receipt (id, model, tokens, cost) for a call the subject made. */
  recordReceipt(receipt: Receipt): void;
}

/** Something that acts: a function, a command, an HTTP service. The only thing observe/ runs. */
export interface Subject {
  readonly kind: SubjectIdentity['kind'];
  readonly name: string;
  /** Resolve the immutable revision the Outcome binds to (declared, git, package version…). */
  identify(): Promise<SubjectIdentity>;
  /** Run one round. Throwing is a subject error, recorded as a status, never a FAIL. */
  respond(input: JsonValue, context: AttemptContext): Promise<SubjectResponse>;
}

/** A tool offered to subjects, with the effect it has on the world. */
export interface ToolDefinition {
  name: string;
  description: string;
  effect: EffectClass;
  /** JSON Schema of the arguments. */
  inputSchema: { [key: string]: JsonValue };
  run(args: JsonValue, context: { workspace: string | null }): JsonValue | Promise<JsonValue>;
}
