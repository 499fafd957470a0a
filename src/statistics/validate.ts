/**
 * Argument checks shared by the statistics functions. Each throws a RangeError whose message names the
 * function, the argument, what is allowed and what was given, so the caller knows what to fix.
 */

/** Throws unless `value` is an integer in [min, max]. */
export function assertInteger(
  where: string,
  name: string,
  value: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer in [${min}, ${max}]`;
    throw new RangeError(`${where}: ${name} must be ${range} (got ${String(value)})`);
  }
}

/** Throws unless `value` is a finite number strictly between 0 and 1. */
export function assertOpenUnit(where: string, name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0 || value >= 1) {
    throw new RangeError(`${where}: ${name} must be a number strictly between 0 and 1 (got ${String(value)})`);
  }
}

/** Throws unless `value` is a finite number in [0, 1]. */
export function assertClosedUnit(where: string, name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`${where}: ${name} must be a number in [0, 1] (got ${String(value)})`);
  }
}

/** Throws unless `value` is a finite number > 0. */
export function assertPositive(where: string, name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${where}: ${name} must be a finite number > 0 (got ${String(value)})`);
  }
}

/** Throws unless x and n are integers with 0 ≤ x ≤ n. */
export function assertCounts(where: string, x: number, n: number, xName = 'x', nName = 'n'): void {
  assertInteger(where, nName, n, 0);
  assertInteger(where, xName, x, 0, n);
}
