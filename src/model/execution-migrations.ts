/** Steps of `riddle.outcome/3` for what the execution record adds about stray errors and writes outside the workspace. */

import { isRecord, type StoredRecord } from './stored-record.js';

/** How v2 recorded an error it could not tie to an attempt: as a warning in these words. */
const V2_STRAY_WARNING = /^harness: (.*), while this trial ran \(not tied to one attempt\)$/s;

/**
 * Errors not tied to one attempt were warnings before v3: each such warning becomes an entry of
 * `execution.strayErrors` (the warning stays, as it was recorded); none means [].
 */
export function strayErrorsFromWarnings(outcome: StoredRecord): StoredRecord {
  if (!isRecord(outcome.execution)) return outcome;
  const warnings = Array.isArray(outcome.warnings) ? outcome.warnings : [];
  const strayErrors = warnings.flatMap((warning) => {
    const match = typeof warning === 'string' ? V2_STRAY_WARNING.exec(warning) : null;
    return match?.[1] === undefined ? [] : [match[1]];
  });
  return { ...outcome, execution: { ...outcome.execution, strayErrors } };
}

/** Nothing outside the workspace was watched before v3. */
export function outsideWritesNotWatched(outcome: StoredRecord): StoredRecord {
  if (!isRecord(outcome.execution)) return outcome;
  return { ...outcome, execution: { ...outcome.execution, outsideWrites: null } };
}
