/** The step of `riddle.outcome/4` for each composition's own observation (files, resources) and its sum per composition. */

import { eachOf, type StoredRecord, within } from './stored-record.js';

/**
 * Before v4 a composition's pass did not watch the workspace nor keep its subject's resource readings: `files` null
 * (not watched, rather than no change) and both readings null. Each composition's summary of its own observation was
 * not kept either: `observed` null.
 */
export function compositionsOwnObservation(outcome: StoredRecord): StoredRecord {
  const step = (s: StoredRecord): StoredRecord => ({
    ...s,
    observation: within(s.observation, (o) => ({ ...o, files: null, resources: { cpuMs: null, peakRssBytes: null } })),
  });
  return {
    ...outcome,
    attempts: eachOf(outcome.attempts, (attempt) => ({
      ...attempt,
      observation: within(attempt.observation, (observation) => ({
        ...observation,
        composition: within(observation.composition, (trace) => ({ ...trace, steps: eachOf(trace.steps, step) })),
      })),
    })),
    compositions: within(outcome.compositions, (summary) => ({
      ...summary,
      results: eachOf(summary.results, (result) => ({ ...result, observed: null })),
    })),
  };
}
