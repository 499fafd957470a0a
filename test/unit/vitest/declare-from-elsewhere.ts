import { captureDeclaration } from '../../../src/vitest/declared-stack.js';

/**
 * Stands in for `trial(…)`: a function in another file that a test file calls. It takes the stack both ways, whole
 * (as `new Error().stack`) and with captureDeclaration, so a test can compare them.
 */
export function declareFromElsewhere(testFile: string, lines = new Map<string, number | null>()) {
  const whole = new Error().stack;
  const captured = captureDeclaration(testFile, lines);
  return { whole, captured };
}

/** Stands in for `trial(…)` as declareFromElsewhere, taking the stack with captureDeclaration only. */
export function captureFromElsewhere(testFile: string, lines: Map<string, number | null>) {
  return captureDeclaration(testFile, lines);
}
