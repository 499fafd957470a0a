import type { AttemptRecord, Case, Outcome } from '../model/index.js';

/** Why one attempt did not pass, in data: the attempt it happened in, the criterion at fault and its message. */
export interface SampleReason {
  /** `arm#index`, the attempt's reference in every report. */
  attempt: string;
  verdict: AttemptRecord['verdict'];
  /** The criterion at fault; null when no criterion is (an error status, a contradicted claim). */
  criterion: string | null;
  /** What went wrong: `expected declines unmet`, `forbidden deletes met`, `subject_error`, `claim contradicted`… */
  what: string;
  /** The evidence note: the failing matcher's message, the error, the receipt contradicting the claim. */
  message: string;
  /** Further attempts that failed the same way. */
  alike: number;
}

const firstLine = (s: string) => s.split('\n').find((line) => line.trim() !== '') ?? '';
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * The most telling reason one non-passing attempt did not pass: its error status, else its first contradicted claim,
 * else its first expected criterion unmet or forbidden one met, else its first other criterion at fault (unknown,
 * disputed), else its verdict. Made for every failing attempt of a trial, so only this one is made: building every
 * reason of each attempt (and looking its arm up in the list of arms) was the reporter's largest garbage on a trial of
 * 100,000 failing attempts.
 */
export function firstReasonOf(cases: ReadonlyMap<string, Case>, attempt: AttemptRecord): SampleReason {
  // Members written out: a spread followed by new members made V8 build a hidden class for every failing attempt.
  const made = (criterion: string | null, what: string, message: string): SampleReason => ({
    attempt: `${attempt.arm}#${attempt.index}`,
    verdict: attempt.verdict,
    criterion,
    what,
    message,
    alike: 0,
  });
  if (attempt.status !== 'completed')
    return made(null, attempt.status, `${attempt.error.where}: ${attempt.error.message}`);
  const contradicted = attempt.claims.find((c) => c.status === 'contradicted');
  if (contradicted)
    return made(
      null,
      `claim “${contradicted.claim.text}” contradicted`,
      contradicted.receipt
        ? `${contradicted.receipt.kind} ${contradicted.receipt.target}: ${contradicted.receipt.detail}`
        : contradicted.note,
    );
  const armCase = cases.get(attempt.arm);
  const result = (name: string) => attempt.criteria.find((c) => c.criterion === name);
  // Unmet (or forbidden-and-met) criteria decide a FAIL: the first of them, else the first unknown or disputed one.
  let other: SampleReason | null = null;
  for (const name of armCase?.expect ?? []) {
    const r = result(name);
    if (!r || r.result === 'met') continue;
    const reason = made(name, `expected ${name} ${r.result}`, r.reason);
    if (r.result === 'unmet') return reason;
    other ??= reason;
  }
  for (const name of armCase?.forbid ?? []) {
    const r = result(name);
    if (!r || r.result === 'unmet') continue;
    const reason = made(name, `forbidden ${name} ${r.result}`, r.reason);
    if (r.result === 'met') return reason;
    other ??= reason;
  }
  return other ?? made(null, attempt.verdict, attempt.reason);
}

/**
 * Up to `limit` distinct reasons why attempts did not pass, from the arms whose verdict is not PASS, in the order
 * the attempts ran. Attempts failing the same way (same criterion, same message) are counted, not repeated.
 */
export function sampleReasons(outcome: Outcome, limit = 3): SampleReason[] {
  const tally = new SampleReasonTally(outcome, limit);
  for (const attempt of [...outcome.attempts].sort((a, b) => a.sequence - b.sequence)) tally.add(attempt);
  return tally.reasons();
}

/**
 * `sampleReasons` one attempt at a time, given in the order they ran (an attempts file's order), so a trial's
 * attempts need not all be held at once. Only the first `limit` distinct reasons are kept, and counted.
 */
export class SampleReasonTally {
  private readonly failingArms: ReadonlySet<string>;
  private readonly cases: ReadonlyMap<string, Case>;
  private readonly found = new Map<string, SampleReason>();

  constructor(
    outcome: Outcome,
    private readonly limit = 3,
  ) {
    this.failingArms = new Set(outcome.arms.filter((a) => a.verdict !== 'PASS').map((a) => a.arm));
    this.cases = new Map(outcome.records.suite.arms.map((arm) => [arm.id, arm.case]));
  }

  add(attempt: AttemptRecord): void {
    if (attempt.verdict === 'PASS' || !this.failingArms.has(attempt.arm)) return;
    const first = firstReasonOf(this.cases, attempt);
    const key = `${first.what}\u0000${firstLine(first.message)}`;
    const seen = this.found.get(key);
    if (seen) seen.alike += 1;
    else if (this.found.size < this.limit) this.found.set(key, first);
  }

  reasons(): SampleReason[] {
    return [...this.found.values()].map((reason) => ({ ...reason }));
  }
}

/** `case#3 FAIL: expected declines unmet — expected 'Sure!' to match /won't/ (and 4 more alike)` */
export function formatSampleReason(reason: SampleReason): string {
  const more = reason.alike > 0 ? ` (and ${reason.alike} more alike)` : '';
  const message = clip(firstLine(reason.message), 200);
  return `${reason.attempt} ${reason.verdict}: ${reason.what}${message ? ` — ${message}` : ''}${more}`;
}
