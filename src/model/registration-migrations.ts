/**
 * Outcome v5 change: a registration check that found the declared policy changed names the fields that changed
 * (`registration.changes`). v4 kept only the two policies' fingerprints, so its records have nothing to fill it from.
 */
import { type StoredRecord, within } from './stored-record.js';

/** Outcome v5 change: `registration.changes` null (the fields a v4 policy change changed were not recorded). */
export function policyChangesUnrecorded(outcome: StoredRecord): StoredRecord {
  return { ...outcome, registration: within(outcome.registration, (check) => ({ ...check, changes: null })) };
}
