import { trialTestResult, type Outcome, type PriceTable, type TrialTestResult } from '../model/index.js';
import type { SuiteDeclaration, TrialDeclaration } from './declaration.js';
import { prepareTrial, type TrialHost } from './prepare.js';
import { recordRegistration } from './registrations.js';
import { runTrial } from './run-trial.js';

export type ConductedTrial =
  | { kind: 'skipped'; reason: string }
  | {
      kind: 'ran';
      outcome: Outcome;
      test: TrialTestResult;
      /** The price table the Outcome's cost was reckoned with (run/outcome-transit makes its cost rows again with it). */
      prices: PriceTable;
    };

/** Whether any attempt ran beyond a block: only then did the trial see results under its declared policy. */
const sawResults = (outcome: Outcome) => outcome.arms.some((arm) => arm.run > (arm.statuses.blocked ?? 0));

/**
 * Prepare a declared trial on its host, run it, and register its declared policy once it has seen results. The
 * whole life of one trial, free of any test framework: the host adapter only turns the result into its own terms.
 */
export async function conductTrial(
  declaration: TrialDeclaration | SuiteDeclaration,
  host: TrialHost,
): Promise<ConductedTrial> {
  const prepared = await prepareTrial(declaration, host);
  if (prepared.kind === 'skipped') return prepared;
  const { plan, policy, registration } = prepared;
  const outcome = await runTrial(plan, host).finally(prepared.close);
  if (sawResults(outcome)) await recordRegistration(host.root, plan.suite.id, policy, registration, outcome.id);
  return { kind: 'ran', outcome, test: trialTestResult(outcome), prices: plan.prices ?? {} };
}
