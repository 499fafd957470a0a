import { expect } from 'vitest';
import { resolveTrial, TrialDeclarationError } from '../../../src/run/index.js';

/** Resolve a declaration (as plain JavaScript would pass it) and return the declaration error's message. */
export function declarationProblem(site: Parameters<typeof resolveTrial>[0], declaration: unknown): string {
  try {
    resolveTrial(site, declaration as never);
  } catch (error) {
    expect(error).toBeInstanceOf(TrialDeclarationError);
    return (error as Error).message;
  }
  throw new Error('the declaration was accepted');
}
