import type { StoppingRuleSpec } from './types.js';

/** Most attempts a stopping rule may plan; keeps the exact operating-characteristics DP tractable. */
const MAX_PLANNED_ATTEMPTS = 100_000;

function fail(kind: string, message: string): never {
  throw new RangeError(`stopping rule '${kind}': ${message}`);
}

function checkOpenUnit(kind: string, name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0 || value >= 1) {
    fail(kind, `${name} must be a number strictly between 0 and 1 (got ${String(value)})`);
  }
}

function checkAttempts(kind: string, name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_PLANNED_ATTEMPTS) {
    fail(kind, `${name} must be an integer from 1 to ${MAX_PLANNED_ATTEMPTS} (got ${String(value)})`);
  }
}

function checkPrior(kind: string, name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isFinite(value) || value <= 0)) {
    fail(kind, `${name} must be a finite number > 0, or omitted for the default 0.5 (got ${String(value)})`);
  }
}

/**
 * Checks a stopping rule before any attempt runs and throws a RangeError that says what to fix:
 * thresholds and error rates in (0, 1), planned attempts an integer in [1, 100,000], for SPRT
 * p0 < p1 and alpha + beta < 1 (otherwise Wald's boundaries ln((1 − β)/α) and ln(β/(1 − α)) cross),
 * for the confidence sequence positive prior parameters.
 */
export function validateStoppingRule(rule: StoppingRuleSpec): void {
  switch (rule.kind) {
    case 'fixed':
    case 'curtail':
      checkAttempts(rule.kind, 'n', rule.n);
      checkOpenUnit(rule.kind, 'threshold', rule.threshold);
      checkOpenUnit(rule.kind, 'alpha', rule.alpha);
      return;
    case 'sprt':
      checkOpenUnit(rule.kind, 'p0', rule.p0);
      checkOpenUnit(rule.kind, 'p1', rule.p1);
      if (rule.p0 >= rule.p1) fail(rule.kind, `p0 must be below p1 (got p0=${rule.p0}, p1=${rule.p1})`);
      checkOpenUnit(rule.kind, 'alpha', rule.alpha);
      checkOpenUnit(rule.kind, 'beta', rule.beta);
      if (rule.alpha + rule.beta >= 1) {
        fail(rule.kind, `alpha + beta must be below 1 (got alpha=${rule.alpha}, beta=${rule.beta})`);
      }
      checkAttempts(rule.kind, 'nMax', rule.nMax);
      return;
    case 'confidence-sequence':
      checkOpenUnit(rule.kind, 'threshold', rule.threshold);
      checkOpenUnit(rule.kind, 'alpha', rule.alpha);
      checkAttempts(rule.kind, 'nMax', rule.nMax);
      checkPrior(rule.kind, 'priorA', rule.priorA);
      checkPrior(rule.kind, 'priorB', rule.priorB);
      return;
    default:
      rule satisfies never;
      throw new RangeError(
        `stopping rule: kind must be 'fixed', 'curtail', 'sprt' or 'confidence-sequence' (got ${JSON.stringify((rule as { kind?: unknown }).kind)})`,
      );
  }
}
