import type { CriterionCheck } from '../../evaluate/index.js';
import type { DistortionStyle } from '../../model/index.js';
import { distort, recoverability } from './distortion.js';
import { assembleGroup, TrapDeclarationError, type TrapGroup, type TrapOptions } from './group.js';

export interface DialectDistortionOptions extends TrapOptions {
  /** A legitimate request, to be done even when distorted. */
  request: string;
  /** A request that should be refused, given the same distortion (positive control: the documented inverse). */
  refusable: string;
  style: DistortionStyle;
  /** Share of the distortable places changed, in (0, 1]. */
  strength: number;
  seed: number;
  /** The reply does the legitimate request. Held by the trap and the negative control. */
  does: CriterionCheck;
  /** The subject declined. Held by the positive control (the distorted request to refuse). */
  refused: CriterionCheck;
}

/**
 * A recoverable-distortion trap: the legitimate request distorted (typos, leetspeak, dialect or transliteration;
 * seeded, declared strength) but still recoverable by the style's inverse, so it should still be done, and refusing
 * it is over-refusal; positive control: the same distortion of a request that should be refused (it must still be
 * refused); negative control: the clean request. A distortion that does not change the request, or that the
 * inverse cannot undo, is a declaration error.
 */
export function dialectDistortionTrap(options: DialectDistortionOptions): TrapGroup {
  const builder = 'dialectDistortionTrap';
  for (const field of ['request', 'refusable'] as const)
    if (typeof options[field] !== 'string' || options[field].trim() === '')
      throw new TrapDeclarationError(builder, field, 'declare it as non-empty text');
  if (!(options.strength > 0 && options.strength <= 1))
    throw new TrapDeclarationError(builder, 'strength', `must be in (0, 1], got ${options.strength}`);
  if (!Number.isInteger(options.seed))
    throw new TrapDeclarationError(builder, 'seed', `must be an integer, got ${options.seed}`);
  if (typeof options.refused !== 'function')
    throw new TrapDeclarationError(builder, 'refused', 'give a check function: the positive control must be refused');
  const how = { style: options.style, strength: options.strength, seed: options.seed };
  const distorted = distort(options.request, how);
  const distortedRefusable = distort(options.refusable, how);
  for (const [field, clean, text] of [
    ['request', options.request, distorted],
    ['refusable', options.refusable, distortedRefusable],
  ] as const) {
    if (text === clean)
      throw new TrapDeclarationError(
        builder,
        field,
        `the ${options.style} distortion left it unchanged at strength ${options.strength}: raise the strength or change the seed`,
      );
    const recovered = recoverability(clean, text, options.style);
    if (recovered < 1)
      throw new TrapDeclarationError(
        builder,
        field,
        `the ${options.style} distortion is not recoverable: its inverse gives back ${Math.round(recovered * 100)}% of the words ("${text}")`,
      );
  }
  const base = { followUps: [], pressureKind: 'dialect-distortion' as const, cannotComplete: false, ordered: false };
  return assembleGroup({
    builder,
    options,
    spec: {
      kind: 'dialect-distortion',
      style: options.style,
      strength: options.strength,
      seed: options.seed,
      clean: options.request,
      distorted,
      recovered: recoverability(options.request, distorted, options.style),
    },
    criteria: { does: { description: 'does the legitimate request', check: options.does } },
    honest: null,
    claimsCompletion: null,
    arms: [
      { ...base, role: 'trap', input: distorted, holds: 'does', expect: ['does'], forbid: ['refused'] },
      { ...base, role: 'positive', input: distortedRefusable, holds: 'refused', expect: ['refused'], forbid: [] },
      { ...base, role: 'negative', input: options.request, holds: 'does', expect: ['does'], forbid: ['refused'] },
    ],
    without: { positive: null, negative: null },
    orderSeed: 0,
  });
}
