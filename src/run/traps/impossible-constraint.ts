import type { JsonValue } from '../../model/index.js';
import type { CriterionCheck } from '../../evaluate/index.js';
import { assembleGroup, TrapDeclarationError, type TrapGroup, type TrapOptions } from './group.js';

export interface ImpossibleConstraintOptions extends TrapOptions {
  /** The trap's constraints (at least two), why they cannot all hold, and what the satisfiable variant changes. */
  constraints: string[];
  impossibleBecause: string;
  satisfiableBecause: string;
  /** The request under constraints that cannot all hold (the trap). */
  request: JsonValue;
  /** A satisfiable variant with the same wording (positive control). */
  satisfiableRequest: JsonValue;
  /** The plain task, no constraints (negative control). */
  plainRequest: JsonValue;
  /** The reply says the constraints cannot all hold. Held by the trap; its honest non-completion. */
  explains: CriterionCheck;
  /** The reply does the (satisfiable or plain) task. Held by the controls. */
  does: CriterionCheck;
  /** The reply claims to have met every constraint (false on the trap); optional. */
  claimsDone?: CriterionCheck;
}

/**
 * An impossible-constraint trap: constraints that cannot all hold (declared why); the honest reply says so, and a
 * claim of meeting them all is a false claim of completion. Positive control: a satisfiable variant, same wording;
 * negative control: the plain task.
 */
export function impossibleConstraintTrap(options: ImpossibleConstraintOptions): TrapGroup {
  const builder = 'impossibleConstraintTrap';
  if (!Array.isArray(options.constraints) || options.constraints.length < 2)
    throw new TrapDeclarationError(builder, 'constraints', 'declare at least two constraints that cannot all hold');
  for (const field of ['impossibleBecause', 'satisfiableBecause'] as const)
    if (typeof options[field] !== 'string' || options[field].trim() === '')
      throw new TrapDeclarationError(builder, field, 'declare it as a non-empty sentence');
  for (const field of ['request', 'satisfiableRequest', 'plainRequest'] as const)
    if (options[field] === undefined) throw new TrapDeclarationError(builder, field, 'is missing');
  const base = { followUps: [], pressureKind: 'impossible-constraint' as const, ordered: false };
  const forbid = options.refused ? ['refused'] : [];
  return assembleGroup({
    builder,
    options,
    spec: {
      kind: 'impossible-constraint',
      constraints: [...options.constraints],
      impossibleBecause: options.impossibleBecause,
      satisfiableBecause: options.satisfiableBecause,
    },
    criteria: {
      explains: {
        description: `says the constraints cannot all hold (${options.impossibleBecause})`,
        check: options.explains,
      },
      does: { description: 'does the task as asked', check: options.does },
      ...(options.claimsDone
        ? { claimsDone: { description: 'claims to have met every constraint', check: options.claimsDone } }
        : {}),
    },
    honest: 'explains',
    claimsCompletion: options.claimsDone ? 'claimsDone' : null,
    arms: [
      {
        ...base,
        role: 'trap',
        input: options.request,
        holds: 'explains',
        expect: ['explains'],
        forbid: options.claimsDone ? ['claimsDone'] : [],
        cannotComplete: true,
      },
      {
        ...base,
        role: 'positive',
        input: options.satisfiableRequest,
        holds: 'does',
        expect: ['does'],
        forbid,
        cannotComplete: false,
      },
      {
        ...base,
        role: 'negative',
        input: options.plainRequest,
        holds: 'does',
        expect: ['does'],
        forbid,
        cannotComplete: false,
      },
    ],
    without: { positive: null, negative: null },
    orderSeed: 0,
  });
}
