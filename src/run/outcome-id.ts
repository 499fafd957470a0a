import { canonicalJson, sha256, type Outcome } from '../model/index.js';

/** Clock readings: timestamps (`…At`) and durations (`…Ms`); they differ between runs that observed the same. */
const CLOCK_KEY = /(?:At|Ms)$/;
/** Other readings of the machine rather than of the subject: peak memory, and the kept sandbox's temporary path. */
const MACHINE_KEYS: ReadonlySet<string> = new Set(['peakRssBytes', 'sandbox']);

/** Clock and machine readings: members left out of the id wherever they sit. */
const isReading = (key: string) => CLOCK_KEY.test(key) || MACHINE_KEYS.has(key);

/**
 * An Outcome's id: the fingerprint of its setup (the pinned records, `setup`) together with everything observed
 * and decided (attempts with their Observations, findings and verdicts, arm and trial verdicts, suite tables,
 * coverage, cost, warnings), so two runs that observed or decided differently never share an id. Clock readings and
 * machine readings are left out (see `CLOCK_KEY`, `MACHINE_KEYS`): a deterministic trial run twice keeps one id. So is
 * the registration check: whether this run registered the policy or found it unchanged is a reading of the project's
 * history, not of the subject (a changed policy still changes the id through the warning it adds).
 */
export function outcomeId(outcome: Omit<Outcome, 'id'>): string {
  const { pinned: _pinned, records: _records, registration: _registration, ...results } = outcome;
  // Filtered while the canonical text is written rather than on a copy first: the Outcome may hold many attempts.
  return `sha256:${sha256(canonicalJson({ setup: outcome.setup, results }, isReading))}`;
}
