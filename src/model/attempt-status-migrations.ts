/**
 * Outcome v4 change for the attempt record, now a union tagged by `status` (model/outcome.ts): a field that cannot
 * apply to an attempt's status cannot be set. Records riddle wrote before already kept every such field null or
 * empty, with one exception: a `blocked` attempt whose provider replay had no answer kept what its subject had done
 * before the block. That partial Observation is no evidence about the subject (the attempt did not run as declared,
 * and nothing judged it), and v4 keeps none for a blocked attempt: it becomes null. Everything else is unchanged.
 */
import { isRecord, type StoredRecord } from './stored-record.js';

/** One attempt as v4 keeps it: a blocked attempt without an Observation. */
function attemptByStatus(attempt: StoredRecord): StoredRecord {
  return attempt.status === 'blocked' && attempt.observation !== null ? { ...attempt, observation: null } : attempt;
}

/** Outcome v4 change: attempts hold only the fields their status allows (a blocked attempt no Observation). */
export function attemptsByStatus(outcome: StoredRecord): StoredRecord {
  const { attempts } = outcome;
  if (!Array.isArray(attempts)) return outcome;
  return { ...outcome, attempts: attempts.map((item) => (isRecord(item) ? attemptByStatus(item) : item)) };
}
