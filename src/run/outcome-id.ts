import {
  canonicalJson,
  canonicalJsonMember,
  canonicalJsonPair,
  canonicalJsonSha256,
  sha256,
  type Sha256List,
  type WrittenMember,
  type AttemptRecord,
  type Outcome,
} from '../model/index.js';

/** Clock readings: timestamps (`…At`) and durations (`…Ms`); they differ between runs that observed the same. */
const isClockKey = (key: string) => key.endsWith('At') || key.endsWith('Ms');
/** Other readings of the machine rather than of the subject: peak memory, and the kept sandbox's temporary path. */
const MACHINE_KEYS: ReadonlySet<string> = new Set(['peakRssBytes', 'sandbox']);

/** Clock and machine readings: members left out of the id wherever they sit (asked of every key of every attempt). */
const isReading = (key: string) => isClockKey(key) || MACHINE_KEYS.has(key);

/** Attempts at most whose Outcome's id text is made as one string (see outcomeId). */
export const WHOLE_TEXT_ATTEMPTS = 256;

/**
 * An Outcome's id: the fingerprint of its setup (the pinned records, `setup`) together with everything observed
 * and decided (attempts with their Observations, findings and verdicts, arm and trial verdicts, suite tables,
 * coverage, cost, warnings), so two runs that observed or decided differently never share an id. Clock readings and
 * machine readings are left out (see `isClockKey`, `MACHINE_KEYS`): a deterministic trial run twice keeps one id. So is
 * the registration check: whether this run registered the policy or found it unchanged is a reading of the project's
 * history, not of the subject (a changed policy still changes the id through the warning it adds). The attempts count
 * by their digests (`attemptDigest`), in the order given (`sequence` order), and where they are stored does not count.
 */
export function outcomeId(
  outcome: Omit<Outcome, 'id'>,
  attemptDigests: readonly string[] | Sha256List = outcome.attempts.map(attemptDigest),
): string {
  const {
    pinned: _pinned,
    records: _records,
    registration: _registration,
    attempts: _attempts,
    attemptsFile: _attemptsFile,
    ...rest
  } = outcome;
  const hashed = { setup: outcome.setup, results: { ...rest, attempts: attemptDigests } };
  // A few attempts' id text is a few kilobytes, made as one string by the walker every attempt's digest has warmed and
  // hashed at once: every trial makes one id, mostly before canonicalJsonSha256's own walk is optimised (a one-attempt
  // Outcome in a fresh process, 1.0–1.4 ms against 1.5–2.2). A larger Outcome's is hashed as it is written: at 100,000
  // attempts the text would be tens of megabytes held at once.
  return `sha256:${
    attemptDigests.length <= WHOLE_TEXT_ATTEMPTS
      ? sha256(canonicalJson(hashed, isReading))
      : canonicalJsonSha256(hashed, isReading)
  }`;
}

/**
 * One attempt's part of its Outcome's id: the sha256 of its canonical JSON without clock and machine readings. The id
 * takes the attempts by these digests, in `sequence` order, so it is the same whether the attempts are held in memory
 * or were written out one by one as they finished (run/attempt-stream), and wherever the attempts file is.
 */
export function attemptDigest(attempt: AttemptRecord): string {
  return sha256(canonicalJson(attempt, isReading));
}

/**
 * An attempt's canonical JSON and its `attemptDigest`, from one walk over the record; members `written` gives are
 * taken as written already (see canonicalJsonPair).
 */
export function attemptLine(
  attempt: AttemptRecord,
  written?: (key: string, member: unknown) => WrittenMember | undefined,
): { json: string; digest: string } {
  const [json, kept] = canonicalJsonPair(attempt, isReading, written);
  return { json, digest: sha256(kept) };
}

/** A member of attempts as attemptLine writes it, with the clock and machine readings it leaves out of the digest. */
export function attemptMember(value: unknown): WrittenMember {
  return canonicalJsonMember(value, isReading);
}
