import { effectRank, type EffectClass, type JsonValue, type ToolRequest } from '../model/index.js';
import type { ToolCaller, ToolDefinition, ToolRunContext } from './subject.js';

/** Thrown to the subject when a tool request is denied; the request itself is kept as evidence. */
export class ToolDeniedError extends Error {
  constructor(
    readonly tool: string,
    reason: string,
  ) {
    super(`tool request denied: ${tool}: ${reason}`);
    this.name = 'ToolDeniedError';
  }
}

/**
 * What a gateway records of an attempt's tool requests at most. Each request is kept with its arguments and its
 * result: a subject making requests as fast as it can, or with the largest bodies MCP accepts (4 MiB each), would
 * otherwise fill the worker's memory within its budget. Far past what an agent's work makes.
 */
export interface ToolRequestBounds {
  /** Requests recorded. */
  count: number;
  /** Characters of JSON of the recorded requests' arguments and results together. */
  jsonChars: number;
}

export const TOOL_REQUEST_BOUNDS: ToolRequestBounds = { count: 10_000, jsonChars: 16 * 1024 * 1024 };

export interface ToolGateway extends ToolCaller {
  /** The tools offered, admitted or not. */
  readonly tools: readonly ToolDefinition[];
  /** Every request so far, admitted or not, in the order made, up to the bounds. */
  readonly requests: readonly ToolRequest[];
  /**
   * Once the requests passed the bounds: which one, and how many were refused since without being recorded (each
   * refused with a ToolDeniedError saying so). Null while within them.
   */
  readonly overflow: { reason: string; refused: number } | null;
  /**
   * Record a request that cannot be made as sent (an MCP `tools/call` whose arguments are not an object): denied, with
   * `reason`, at the tool's effect (the strongest when no such tool is offered). Past the bounds, or once the attempt
   * is over, it is refused unrecorded as any request is.
   */
  deny(name: string, args: JsonValue, reason: string): void;
  /** Round that subsequent requests belong to. */
  setRound(round: number): void;
  /** End the attempt: later requests (from a subject that would not stop) are refused and not recorded. */
  close(): void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Tools for one attempt. Each request is recorded with its arguments, time and result or error, and admitted
 * only when the tool's effect class is no stronger than the Case allows: a denied request is evidence of a
 * forbidden method. A request for a tool that is not offered is denied and recorded at the strongest effect,
 * since nothing says what it would have done.
 */
export function createToolGateway(options: {
  tools: readonly ToolDefinition[];
  maxEffect: EffectClass;
  context: ToolRunContext;
  /** Milliseconds since the attempt started. */
  elapsedMs: () => number;
  /** What is recorded at most (default TOOL_REQUEST_BOUNDS). */
  bounds?: ToolRequestBounds;
}): ToolGateway {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const bounds = options.bounds ?? TOOL_REQUEST_BOUNDS;
  const requests: ToolRequest[] = [];
  let round = 1;
  let closed = false;
  let jsonChars = 0;
  const tooMuchJson = () => ({
    reason: `the arguments and results of its tool requests come to more than ${bounds.jsonChars} characters of JSON, the most riddle records`,
    refused: 0,
  });
  /** Characters of a value's JSON (none for what has no JSON: recording it fails on its own, later). */
  const weight = (value: unknown) => {
    try {
      return JSON.stringify(value ?? null)?.length ?? 0;
    } catch {
      return 0;
    }
  };
  /**
   * What makes a request's record, once the request is within the bounds (its id, round and time taken now); else a
   * ToolDeniedError saying why it is not recorded.
   */
  const admitToRecord = (name: string, args: JsonValue) => {
    if (closed) throw new ToolDeniedError(name, 'the attempt is over');
    const argumentsJson = gateway.overflow === null ? weight(args) : 0;
    if (gateway.overflow === null && requests.length >= bounds.count)
      gateway.overflow = {
        reason: `it made more than ${bounds.count} tool requests, the most riddle records`,
        refused: 0,
      };
    if (gateway.overflow === null && jsonChars + argumentsJson > bounds.jsonChars) gateway.overflow = tooMuchJson();
    if (gateway.overflow !== null) {
      gateway.overflow.refused += 1;
      throw new ToolDeniedError(name, `not recorded: ${gateway.overflow.reason}`);
    }
    jsonChars += argumentsJson;
    const id = `t${requests.length + 1}`;
    const at = round;
    const atMs = options.elapsedMs();
    // Written out member by member: a spread followed by new members gave every request a hidden class of its own.
    return (effect: ToolRequest['effect'], admitted: boolean, reason: string): ToolRequest => ({
      id,
      round: at,
      tool: name,
      arguments: args,
      atMs,
      effect,
      admitted,
      reason,
      result: null,
      error: null,
    });
  };
  // A data member rather than a getter: V8 keeps an object literal with a getter of its own in dictionary mode, and
  // every attempt makes a gateway (held, with the tools' context, as long as the attempt's subject runs).
  const gateway: Omit<ToolGateway, 'overflow'> & { overflow: { reason: string; refused: number } | null } = {
    tools: options.tools,
    requests,
    overflow: null,
    setRound(next) {
      round = next;
    },
    close() {
      closed = true;
    },
    deny(name, args, reason) {
      try {
        const record = admitToRecord(name, args);
        requests.push(record(byName.get(name)?.effect ?? 'irreversible', false, reason));
      } catch (error) {
        // Refused unrecorded (the attempt is over, or past the bounds): counted in the overflow as any request.
        if (!(error instanceof ToolDeniedError)) throw error;
      }
    },
    async call(name, args: JsonValue) {
      const record = admitToRecord(name, args);
      const tool = byName.get(name);
      if (!tool) {
        const reason = `no tool named "${name}" is offered`;
        requests.push(record('irreversible', false, reason));
        throw new ToolDeniedError(name, reason);
      }
      if (effectRank(tool.effect) > effectRank(options.maxEffect)) {
        const reason = `effect "${tool.effect}" exceeds the case's allowed "${options.maxEffect}"`;
        requests.push(record(tool.effect, false, reason));
        throw new ToolDeniedError(name, reason);
      }
      const request = record(tool.effect, true, `effect "${tool.effect}" within "${options.maxEffect}"`);
      requests.push(request);
      try {
        const result = await tool.run(args, options.context);
        request.result = result ?? null;
        // A result past the bound is kept (it is this request's); the requests after it are refused.
        jsonChars += weight(request.result);
        if (gateway.overflow === null && jsonChars > bounds.jsonChars) gateway.overflow = tooMuchJson();
        return result;
      } catch (error) {
        request.error = message(error);
        throw error;
      }
    },
  };
  return gateway;
}
