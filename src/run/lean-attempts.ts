import { sameData, type AttemptRecord } from '../model/index.js';

/**
 * Distinct values one part may take before it stops being shared: past it, each attempt keeps its own (as unshared),
 * so a trial whose attempts all differ pays neither the keys nor the lookups for nothing.
 */
export const DISTINCT_SHARED = 1024;

/**
 * The parts of a lean attempt that are shared between attempts alike in them; `observation.<member>` a member of the
 * Observation, `findings.<member>` and `criteria.<member>` a member of each finding or criterion, shared on their own
 * once the whole part no longer is.
 */
type Part =
  | 'findings'
  | 'criteria'
  | 'claims'
  | 'why'
  | 'error'
  | 'pressure'
  | 'observation'
  | `${'observation' | 'findings' | 'criteria'}.${string}`;

/** Freeze a shared value and everything in it: a shared part changed in place would change every attempt holding it. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}

/**
 * The copy of an attempt a running trial keeps for its verdicts, stopping, cost and tables once the attempt itself is
 * written out: everything but the bulk of the Observation (rounds with the subject's replies, file changes, tool
 * requests, database rows) and model judges' whole exchanges. No aggregate reads those; they stay in the file.
 */
export function leanAttempt(record: AttemptRecord): AttemptRecord {
  const findings = record.findings.map((finding) => (finding.judge === null ? finding : { ...finding, judge: null }));
  if (record.observation === null) return { ...record, findings };
  return {
    ...record,
    observation: { ...record.observation, rounds: [], files: [], toolRequests: [], rows: [] },
    findings,
  };
}

/**
 * Lean copies of a trial's attempts (leanAttempt) whose alike parts are one shared value: most attempts of a trial
 * have the same findings, criteria, reason and lean Observation, so a trial of 100,000 attempts keeps each of those
 * once, frozen, and per attempt only what differs (its place, seed, times). Parts are matched by their JSON text;
 * a part whose text differs (another key order, another value) is simply kept apart. Equal to leanAttempt in value.
 */
export class LeanAttempts {
  private readonly shared = new Map<Part, Map<string, unknown>>();
  /** Parts that passed DISTINCT_SHARED distinct values: no longer looked up. */
  private readonly unshared = new Set<Part>();
  private readonly texts = new Map<string, string>();
  private lastStartedAt = '';
  /** Each part's shared value the last attempt kept. */
  private readonly last = new Map<Part, unknown>();
  /** Every shared value (frozen, kept for the trial): what an attempt's lean copy holds in place of its own. */
  private readonly sharedValues = new WeakSet<object>();

  /** Whether a lean copy's member is a value shared between attempts (not the attempt's own). */
  isShared(value: unknown): boolean {
    return typeof value === 'object' && value !== null && this.sharedValues.has(value);
  }

  /** The lean copy of `record` to keep in its place, equal to `leanAttempt(record)`. */
  of(record: AttemptRecord): AttemptRecord {
    const lean = leanAttempt(record);
    // Each member as the lean copy has it or equal to it: still the same variant of the union. Every member written
    // out in one literal (every variant has every key): all of them in the object itself, one hidden class for every
    // copy, where a copy spread from the record carried a second array of members (about 90 bytes an attempt).
    return {
      arm: this.text(lean.arm),
      index: lean.index,
      sequence: lean.sequence,
      seed: lean.seed,
      status: lean.status,
      verdict: lean.verdict,
      why: this.share('why', lean.why),
      reason: this.text(lean.reason),
      startedAt: this.startedAt(lean.startedAt),
      durationMs: lean.durationMs,
      sandbox: lean.sandbox,
      observation: this.observation(lean.observation),
      findings: this.items('findings', lean.findings),
      criteria: this.items('criteria', lean.criteria),
      claims: this.share('claims', lean.claims),
      error: this.share('error', lean.error),
      pressure: this.share('pressure', lean.pressure),
    } as AttemptRecord;
  }

  /**
   * The lean Observation: shared whole while attempts are alike in it; once they are not (past DISTINCT_SHARED
   * distinct ones, as when each attempt's wall time or receipts differ), a copy of its own whose members are each
   * shared with the attempts alike in that member. Each attempt of a subject whose receipts differed kept its whole
   * Observation: its observers, resources, notes and emptied lists, about 350 bytes besides the receipts.
   */
  private observation(value: AttemptRecord['observation']): AttemptRecord['observation'] {
    if (value === null || !this.unshared.has('observation')) return this.share('observation', value);
    return this.withSharedMembers('observation', value);
  }

  /**
   * An attempt's findings or criteria: shared whole while attempts are alike in them; once they are not (each
   * attempt's check message its own, as when a failing check quotes the reply), each item a copy of its own whose
   * members are each shared with the items alike in that member (its evidence, what covered it, its verdict words),
   * its own texts kept. A failing check quoting the reply made each attempt keep about 1.2 KB against 0.17 KB.
   */
  private items<T extends object>(part: 'findings' | 'criteria', value: T[]): T[] {
    if (!this.unshared.has(part)) return this.share(part, value);
    return value.map((item) => this.withSharedMembers(part, item));
  }

  /**
   * A copy of `value` whose members that are objects or lists are each the value shared with the copies alike in that
   * member. Made by spreading, so the copy is laid out as the value was (a copy built member by member kept its later
   * members apart from the object, larger than the value); its texts and numbers are the value's own.
   */
  private withSharedMembers<T extends object>(part: 'observation' | 'findings' | 'criteria', value: T): T {
    const copy = { ...value };
    for (const key in copy) {
      const member = copy[key];
      if (typeof member === 'object' && member !== null) copy[key] = this.share(`${part}.${key}`, member);
    }
    return copy;
  }

  /**
   * The start time the attempt before kept, when this one started in the same millisecond (several attempts a
   * millisecond start so in a trial of quick attempts): one string for them, not one each.
   */
  private startedAt(value: string): string {
    if (value !== this.lastStartedAt) this.lastStartedAt = value;
    return this.lastStartedAt;
  }

  /** One string for equal texts (a reason is built anew by every attempt that gives it). */
  private text(value: string): string {
    const kept = this.texts.get(value);
    if (kept !== undefined) return kept;
    if (this.texts.size < DISTINCT_SHARED) this.texts.set(value, value);
    return value;
  }

  private share<T>(part: Part, value: T): T {
    if (value === null || this.unshared.has(part)) return value;
    // Most attempts are alike in a part to the attempt before: compared as data first, before writing its JSON text.
    const last = this.last.get(part);
    if (last !== undefined && sameData(last, value)) return last as T;
    const kept = this.lookUp(part, value);
    if (kept !== undefined) this.last.set(part, kept);
    return kept ?? value;
  }

  /** The shared value equal to `value` (now `value` itself, frozen, when it is the first); undefined once unshared. */
  private lookUp<T>(part: Part, value: T): T | undefined {
    let seen = this.shared.get(part);
    if (!seen) {
      seen = new Map();
      this.shared.set(part, seen);
    }
    const key = JSON.stringify(value);
    const kept = seen.get(key);
    if (kept !== undefined) return kept as T;
    if (seen.size >= DISTINCT_SHARED) {
      this.unshared.add(part);
      this.shared.delete(part);
      this.last.delete(part);
      return undefined;
    }
    seen.set(key, deepFreeze(value));
    if (typeof value === 'object' && value !== null) this.sharedValues.add(value);
    return value;
  }
}
