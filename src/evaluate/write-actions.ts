import {
  canonicalJson,
  EVALUATOR_SCHEMA,
  type EffectClass,
  type Evaluator,
  type JsonValue,
  type ToolRequest,
} from '../model/index.js';
import type { CriterionCheck, EvaluatorDefinition } from './evaluator.js';
import { describeToolRequest } from './evidence.js';

/** An action a correct subject makes: a tool and its arguments (τ-bench's ground-truth `actions`). */
export interface ExpectedAction {
  tool: string;
  arguments: JsonValue;
}

/** Which expected writes the subject's successful writes matched, and what is left on each side. */
export interface WriteActionComparison {
  matched: { expected: ExpectedAction; request: ToolRequest }[];
  /** Expected writes with no successful request of the same tool and canonical arguments. */
  missing: ExpectedAction[];
  /** Successful writes no expected write accounts for. */
  unexpected: ToolRequest[];
}

/** The effect classes a write matcher compares by default: what changes state the subject owns or cannot undo. */
export const WRITE_EFFECTS: readonly EffectClass[] = ['write', 'irreversible'];

/**
 * Match the subject's successful writes (admitted requests that did not fail, of a compared effect class) with the
 * expected ones, as multisets of tool name and canonical arguments (keys sorted, so key order and `1` vs `1.0` do not
 * count): the state a sequence of writes leaves depends on which writes were made, and a read changes nothing.
 * Expected actions of tools whose effect is not compared (reads, hand-offs) are left out on both sides.
 */
export function compareWriteActions(
  requests: readonly ToolRequest[],
  expected: readonly ExpectedAction[],
  effects: Readonly<Record<string, EffectClass>>,
  compared: readonly EffectClass[] = WRITE_EFFECTS,
): WriteActionComparison {
  const isCompared = (tool: string, effect?: EffectClass) => compared.includes(effect ?? effects[tool] ?? 'none');
  const key = (tool: string, args: JsonValue) => `${tool}\u0000${canonicalJson(args)}`;
  const writes = requests.filter((r) => r.admitted && r.error === null && isCompared(r.tool, r.effect));
  const unused = new Map<string, ToolRequest[]>();
  for (const request of writes) {
    const k = key(request.tool, request.arguments);
    unused.set(k, [...(unused.get(k) ?? []), request]);
  }
  const matched: WriteActionComparison['matched'] = [];
  const missing: ExpectedAction[] = [];
  for (const action of expected.filter((a) => isCompared(a.tool))) {
    const request = unused.get(key(action.tool, action.arguments))?.shift();
    if (request) matched.push({ expected: action, request });
    else missing.push(action);
  }
  const used = new Set(matched.map((m) => m.request));
  return { matched, missing, unexpected: writes.filter((r) => !used.has(r)) };
}

export interface WriteActionEvaluatorOptions {
  id: string;
  /** Change it whenever what the matcher accepts changes. */
  revision: string;
  criterion: string;
  /** The expected actions of a Case (writes and reads alike; only writes are compared); undefined: none known. */
  expected: (arm: string) => readonly ExpectedAction[] | undefined;
  /** The effect class of every tool, as declared for the subject's tools. */
  effects: Readonly<Record<string, EffectClass>>;
  /** Effect classes compared (default `write`, `irreversible`). */
  compared?: readonly EffectClass[];
  limits?: readonly string[];
}

const describeAction = (a: ExpectedAction) => `${a.tool}(${canonicalJson(a.arguments)})`;

/**
 * A receipt-grade evaluator of an agent's work: the criterion is met when the successful write requests the tool
 * gateway recorded match the expected writes exactly (`compareWriteActions`), unmet otherwise, with what is missing
 * and what is unexpected in its note. It reads only tool-request receipts; what the subject said plays no part.
 */
export function writeActionEvaluator(options: WriteActionEvaluatorOptions): EvaluatorDefinition {
  const check: CriterionCheck = (view, context) => {
    const expected = options.expected(context.arm);
    if (expected === undefined) return context.unknown(`no expected actions are known for case "${context.arm}"`);
    const comparison = compareWriteActions(view.toolRequests, expected, options.effects, options.compared);
    const { matched, missing, unexpected } = comparison;
    if (missing.length === 0 && unexpected.length === 0) {
      return {
        result: 'met',
        label: null,
        note:
          matched.length === 0
            ? 'no write expected and none made'
            : `every expected write made: ${matched.map((m) => m.request.id).join(', ')}`,
      };
    }
    const parts = [
      missing.length > 0 ? `missing ${missing.map(describeAction).join('; ')}` : null,
      unexpected.length > 0 ? `unexpected ${unexpected.map(describeToolRequest).join('; ')}` : null,
    ].filter((part) => part !== null);
    return {
      result: 'unmet',
      label: null,
      note: `${matched.length} of ${matched.length + missing.length} expected writes made; ${parts.join('; ')}`,
    };
  };
  const record: Evaluator = {
    schema: EVALUATOR_SCHEMA,
    id: options.id,
    kind: 'mechanical',
    revision: options.revision,
    criteria: [options.criterion],
    model: null,
    independence: {
      independent: true,
      reason: 'compares tool-request receipts with expected actions; no model involved',
    },
    calibration: null,
    limits: [...(options.limits ?? [])],
    adjudicator: false,
  };
  return { record, checks: { [options.criterion]: check } };
}
