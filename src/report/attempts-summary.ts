import { closeSync, openSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import { RecordError, type AttemptRecord, type ClaimCheck, type Outcome, type Verdict } from '../model/index.js';
import { LineReader } from './line-reader.js';
import { neutraliseText, mapStrings } from './safe-text.js';
import { SampleReasonTally, type SampleReason } from './sample-reasons.js';

/** Past this many attempts in a trial, its attempts carry their verdict and reason only (keeps large runs small). */
export const DETAILED_ATTEMPTS = 2000;

/** Distinct contradicted claims kept per trial (the renderers show at most this many). */
const CONTRADICTIONS_KEPT = 10;

/** A contradicted claim made alike by one or more attempts. */
export interface ContradictedClaim {
  text: string;
  note: string;
  receipt: ClaimCheck['receipt'];
  /** How many attempts made it. */
  attempts: number;
}

/** An attempt whose sandbox was kept for inspection. */
export interface AttemptSandbox {
  arm: string;
  index: number;
  verdict: Verdict;
  sandbox: string;
}

/**
 * What the renderers show of a trial's attempts, gathered one attempt at a time: from an Outcome's inline attempts,
 * or read from its attempts file, so a trial of 100,000 attempts is rendered without holding its attempts. Plain
 * data; subject-derived text in it is as the attempts had it, except `rows`, already neutralised for the HTML page.
 */
export interface AttemptsSummary {
  /** Attempts summarised. */
  count: number;
  /** Per arm (in the Outcome's `arms` order), each attempt's verdict in `index` order: the terminal's attempt bar. */
  verdicts: Verdict[][];
  /** The first distinct contradicted claims, each with how many attempts made it. */
  contradicted: ContradictedClaim[];
  /** The first SANDBOXES_LISTED attempts whose sandbox was kept, in the order they ran. */
  sandboxes: AttemptSandbox[];
  /** How many attempts had their sandbox kept, listed or not (each attempt's `sandbox` in the attempts file). */
  sandboxesKept: number;
  /** Why attempts did not pass (report/sample-reasons), from the arms that did not PASS. */
  samples: SampleReason[];
  /** The HTML report's attempt rows, each as JSON text, in the order given (whole detail up to DETAILED_ATTEMPTS). */
  rows: string[];
}

/**
 * Kept sandboxes listed by the reports; the rest are counted. A trial keeping every failed attempt's sandbox would
 * otherwise print a line for each of its attempts, and the summary hold them all.
 */
export const SANDBOXES_LISTED = 10;

/** Distinct row ends (verdict, status, reason) kept for attempts without detail. */
const TAILS_KEPT = 1024;

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** JSON inside a <script type="application/json">: nothing in it can close the element or open a comment. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

function attemptDetail(a: AttemptRecord) {
  const replies = (a.observation?.rounds ?? []).map((r) =>
    typeof r.reply === 'string' ? r.reply : JSON.stringify(r.reply),
  );
  return {
    reply: replies.length ? clip(replies.join('\n---\n'), 2000) : null,
    criteria: a.criteria.map((c) => [c.criterion, c.result, c.grade ?? '—', clip(c.reason, 400)]),
    notes: [
      ...(a.error ? [`${a.error.where}: ${clip(a.error.message, 400)}`] : []),
      ...a.claims.map((c) => `claim “${clip(c.claim.text, 200)}” ${c.status}: ${clip(c.note, 200)}`),
      ...(a.observation?.toolRequests ?? []).map(
        (t) => `${t.admitted ? 'admitted' : 'denied'} tool ${t.tool} (${t.effect}): ${clip(t.reason, 200)}`,
      ),
      ...(a.observation?.files ?? []).map((f) => `${f.change} ${f.path} (${f.size} B)`),
      ...(a.sandbox ? [`sandbox kept at ${a.sandbox}`] : []),
    ],
  };
}

/** Builds an AttemptsSummary from attempts given one by one, in the order they ran. */
export class AttemptsSummarizer {
  private readonly armAt: ReadonlyMap<string, number>;
  private readonly byArm: [number, Verdict][][];
  private readonly contradicted = new Map<string, ContradictedClaim>();
  private readonly sandboxes: AttemptSandbox[] = [];
  private sandboxesKept = 0;
  private readonly samples: SampleReasonTally;
  private readonly rows: string[] = [];
  private readonly tails = new Map<string, string>();
  private count = 0;

  /** `expected`: how many attempts the trial ran, which decides whether the HTML rows carry their detail. */
  constructor(
    outcome: Outcome,
    private readonly expected: number,
  ) {
    this.armAt = new Map(outcome.arms.map((arm, i) => [arm.arm, i]));
    this.byArm = outcome.arms.map(() => []);
    this.samples = new SampleReasonTally(outcome);
  }

  add(attempt: AttemptRecord): void {
    this.count += 1;
    const arm = this.armAt.get(attempt.arm) ?? -1;
    this.byArm[arm]?.push([attempt.index, attempt.verdict]);
    for (const check of attempt.claims) {
      if (check.status !== 'contradicted') continue;
      const key = JSON.stringify([check.claim.text, check.note, check.receipt]);
      const seen = this.contradicted.get(key);
      if (seen) seen.attempts += 1;
      else if (this.contradicted.size < CONTRADICTIONS_KEPT)
        this.contradicted.set(key, { text: check.claim.text, note: check.note, receipt: check.receipt, attempts: 1 });
    }
    if (attempt.sandbox !== null && ++this.sandboxesKept <= SANDBOXES_LISTED)
      this.sandboxes.push({
        arm: attempt.arm,
        index: attempt.index,
        verdict: attempt.verdict,
        sandbox: attempt.sandbox,
      });
    this.samples.add(attempt);
    if (this.expected > DETAILED_ATTEMPTS) {
      this.rows.push(this.plainRow(arm, attempt));
      return;
    }
    const row = [
      arm,
      attempt.index,
      attempt.verdict,
      attempt.status,
      clip(attempt.reason, 160),
      attemptDetail(attempt),
    ];
    // Shown by the page as text: controls and bidi marks made visible first, as for every rendered string.
    this.rows.push(scriptJson(mapStrings(row, neutraliseText)));
  }

  /**
   * An attempt's row without detail, `[arm,index,"verdict","status","reason",null]`, made as the detailed rows are
   * (neutralised, clipped, safe in a script element). Its end after the index is kept per distinct text, since a large
   * trial's attempts mostly share their verdict, status and reason; a row whose end is not kept is made whole, one
   * string: an end cut from a longer text keeps that text alive beside the row, for every attempt of a trial whose
   * reasons all differ (about 100 bytes an attempt more).
   */
  private plainRow(arm: number, attempt: AttemptRecord): string {
    const key = `${attempt.verdict}\n${attempt.status}\n${attempt.reason}`;
    const kept = this.tails.get(key);
    if (kept !== undefined) return `[${arm},${attempt.index},${kept}`;
    const row = scriptJson([
      arm,
      attempt.index,
      ...mapStrings([attempt.verdict, attempt.status, clip(attempt.reason, 160)], neutraliseText),
      null,
    ]);
    if (this.tails.size < TAILS_KEPT) this.tails.set(key, row.slice(row.indexOf(',', row.indexOf(',') + 1) + 1));
    return row;
  }

  finish(): AttemptsSummary {
    return {
      count: this.count,
      verdicts: this.byArm.map((pairs) => pairs.sort((a, b) => a[0] - b[0]).map(([, verdict]) => verdict)),
      contradicted: [...this.contradicted.values()],
      sandboxes: this.sandboxes,
      sandboxesKept: this.sandboxesKept,
      samples: this.samples.reasons(),
      rows: this.rows,
    };
  }
}

/** The summary of an Outcome's inline attempts (in `sequence` order, the order they ran). */
export function summarizeAttempts(outcome: Outcome): AttemptsSummary {
  const summarizer = new AttemptsSummarizer(outcome, outcome.attempts.length);
  for (const attempt of [...outcome.attempts].sort((a, b) => a.sequence - b.sequence)) summarizer.add(attempt);
  return summarizer.finish();
}

/** Each Outcome's summary: the one given at its position (read from its attempts file), else its inline attempts'. */
export function attemptsSummaries(
  outcomes: readonly Outcome[],
  given: readonly (AttemptsSummary | undefined)[] = [],
): AttemptsSummary[] {
  return outcomes.map((outcome, i) => given[i] ?? summarizeAttempts(outcome));
}

/** Bytes read at a time from an attempts file. */
const CHUNK_BYTES = 1 << 20;
/**
 * Bytes of the first read: most attempts files are small (about 1 KB for a one-attempt trial), and a megabyte
 * zero-filled for each of them cost the main process more than reading the file (about 0.3 ms a trial, and garbage).
 */
const FIRST_CHUNK_BYTES = 1 << 16;

/**
 * The summary of an Outcome's attempts read from a JSON Lines file (one AttemptRecord per line, in the order run), a
 * chunk at a time with the event loop given a turn between full chunks, so neither the file nor its attempts are ever
 * held whole and the loop is free between chunks. The reads themselves are synchronous: most attempts files end
 * within the first chunk, and each asynchronous call (open, read, read, close) cost a round trip through the thread
 * pool, about 0.05 ms of CPU each on the machine measured, more than reading a one-attempt trial's file. A line that
 * is not JSON fails with the file and line number.
 */
export async function summarizeAttemptsFile(
  outcome: Outcome,
  file: string,
  read: {
    /** Attempts the trial ran, when the Outcome's order travelled without them (run/outcome-transit). */
    attempts?: number;
    /** Given each attempt as it is read, in file order. */
    each?: (attempt: AttemptRecord) => void;
  } = {},
): Promise<AttemptsSummary> {
  const summarizer = new AttemptsSummarizer(outcome, read.attempts ?? outcome.execution.order.length);
  let line = 0;
  const take = (text: string) => {
    line += 1;
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new RecordError(`${file}:${line}`, `not valid JSON (${why}); the file may be truncated or corrupt`);
    }
    // Written by this run's worker from a checked AttemptRecord (run/attempt-stream): not parsed again.
    summarizer.add(value as AttemptRecord);
    read.each?.(value as AttemptRecord);
  };
  const fd = openSync(file, 'r');
  try {
    const lines = new LineReader(fd, FIRST_CHUNK_BYTES, CHUNK_BYTES);
    // The event loop gets a turn after every read that filled its room (a file of more than one chunk).
    while (lines.next(take)) if (lines.full) await turn();
  } finally {
    closeSync(fd);
  }
  return summarizer.finish();
}
