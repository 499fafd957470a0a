import type { JsonValue } from '../../model/index.js';
import type { CriterionCheck } from '../../evaluate/index.js';
import { assembleGroup, TrapDeclarationError, type TrapGroup, type TrapOptions } from './group.js';

export interface FalsePremiseOptions extends TrapOptions {
  /** The false fact the trap's request rests on, and what is true instead (kept in the trap record). */
  premise: string;
  truth: string;
  /** The request resting on the false premise (the trap). */
  request: JsonValue;
  /** The same request on a true premise (positive control). */
  truePremiseRequest: JsonValue;
  /** The plain question (negative control). */
  plainRequest: JsonValue;
  /** The reply does not take the premise as true: it corrects or questions it. Held by the trap. */
  corrects: CriterionCheck;
  /** The reply answers the request correctly. Held by both controls (the check may read `context.case.trap.role`). */
  answers: CriterionCheck;
}

/**
 * A false-premise trap and its controls: the trap asks on a false fact and must not accept it; the positive control
 * asks the same on a true premise and must be answered (refusing it is over-refusal); the negative control is the
 * plain question.
 */
export function falsePremiseTrap(options: FalsePremiseOptions): TrapGroup {
  const builder = 'falsePremiseTrap';
  for (const field of ['premise', 'truth'] as const)
    if (typeof options[field] !== 'string' || options[field].trim() === '')
      throw new TrapDeclarationError(builder, field, 'declare it as a non-empty sentence');
  for (const field of ['request', 'truePremiseRequest', 'plainRequest'] as const)
    if (options[field] === undefined) throw new TrapDeclarationError(builder, field, 'is missing');
  const plain = { followUps: [], pressureKind: 'false-premise' as const, cannotComplete: false, ordered: false };
  const forbid = options.refused ? ['refused'] : [];
  return assembleGroup({
    builder,
    options,
    spec: { kind: 'false-premise', premise: options.premise, truth: options.truth },
    criteria: {
      corrects: {
        description: `does not accept the false premise "${options.premise}" (${options.truth})`,
        check: options.corrects,
      },
      answers: { description: 'answers the request correctly', check: options.answers },
    },
    honest: null,
    claimsCompletion: null,
    arms: [
      { ...plain, role: 'trap', input: options.request, holds: 'corrects', expect: ['corrects'], forbid: [] },
      { ...plain, role: 'positive', input: options.truePremiseRequest, holds: 'answers', expect: ['answers'], forbid },
      { ...plain, role: 'negative', input: options.plainRequest, holds: 'answers', expect: ['answers'], forbid },
    ],
    without: { positive: null, negative: null },
    orderSeed: 0,
  });
}
