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

export interface ToolGateway extends ToolCaller {
  /** The tools offered, admitted or not. */
  readonly tools: readonly ToolDefinition[];
  /** Every request so far, admitted or not, in the order made. */
  readonly requests: readonly ToolRequest[];
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
}): ToolGateway {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const requests: ToolRequest[] = [];
  let round = 1;
  let closed = false;
  return {
    tools: options.tools,
    requests,
    setRound(next) {
      round = next;
    },
    close() {
      closed = true;
    },
    async call(name, args: JsonValue) {
      if (closed) throw new ToolDeniedError(name, 'the attempt is over');
      const id = `t${requests.length + 1}`;
      const base = { id, round, tool: name, arguments: args, atMs: options.elapsedMs() };
      const tool = byName.get(name);
      if (!tool) {
        const reason = `no tool named "${name}" is offered`;
        requests.push({ ...base, effect: 'irreversible', admitted: false, reason, result: null, error: null });
        throw new ToolDeniedError(name, reason);
      }
      if (effectRank(tool.effect) > effectRank(options.maxEffect)) {
        const reason = `effect "${tool.effect}" exceeds the case's allowed "${options.maxEffect}"`;
        requests.push({ ...base, effect: tool.effect, admitted: false, reason, result: null, error: null });
        throw new ToolDeniedError(name, reason);
      }
      const request: ToolRequest = {
        ...base,
        effect: tool.effect,
        admitted: true,
        reason: `effect "${tool.effect}" within "${options.maxEffect}"`,
        result: null,
        error: null,
      };
      requests.push(request);
      try {
        const result = await tool.run(args, options.context);
        request.result = result ?? null;
        return result;
      } catch (error) {
        request.error = message(error);
        throw error;
      }
    },
  };
}
