import { expect as vitestExpect } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import { resolveTrial, runTrial, type SuiteDeclaration, type TrialDeclaration } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

/** A real Outcome from a declaration, run in process with a fixed clock: what the renderers are tested on. */
export async function runOutcome(name: string, declaration: TrialDeclaration | SuiteDeclaration): Promise<Outcome> {
  const resolved = resolveTrial({ name, file: 'trials/report.test.ts', path: [] }, declaration);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
}
