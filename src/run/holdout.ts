import type { Outcome } from '../model/index.js';

/** Set to `1` to show a holdout run's attempts in full; every such run is recorded in the ledger as a reveal. */
export const HOLDOUT_REVEAL_VARIABLE = 'RIDDLE_HOLDOUT_REVEAL';

/**
 * A holdout run as it may be reported without a reveal: the verdicts and rates, nothing a developer could tune
 * against. Attempts (with their replies and evidence), findings, claims, suite tables and the reasons of excluded
 * attempts are withheld, and a warning says how to reveal them. Applied by assembleOutcome before the Outcome's id is
 * taken, so the id is that of the Outcome as reported.
 */
export function concealHoldout(outcome: Omit<Outcome, 'id'>): Omit<Outcome, 'id'> {
  return {
    ...outcome,
    attempts: [],
    attemptsFile: null,
    execution: { ...outcome.execution, order: [] },
    arms: outcome.arms.map((arm) => ({
      ...arm,
      exclusions: arm.exclusions.map((e) => ({ ...e, reason: 'withheld (holdout)' })),
    })),
    suite: null,
    capabilities: [],
    findings: [],
    warnings: [
      ...outcome.warnings,
      `holdout: reported as verdict and rate only; ${HOLDOUT_REVEAL_VARIABLE}=1 shows the attempts (each reveal is recorded in the holdout ledger)`,
    ],
  };
}
