import { rmSync } from 'node:fs';
import path from 'node:path';
import { writeAtomically } from '../report/outcome-files.js';
import { readSplitJson, splitJsonLines } from '../report/split-json.js';
import type { OutcomeInTransit } from '../run/outcome-transit.js';
/**
 * What a trial's Vitest test carries to the reporter: its Outcome, built in the worker, as it travels (without the
 * order and cost rows its attempts file gives back, run/outcome-transit).
 */
export interface RiddleTaskMeta {
  trial: string;
  /** Line of the `trial(…)` call in its test file, when it could be told (for annotations). */
  line?: number | null;
  /**
   * The Outcome in transit (run/outcome-transit) as JSON text: one string crosses to the main process and stays in
   * Vitest's task tree of both processes, where the object of thousands of members it replaces cost serialising,
   * deserialising and collecting there, about a tenth of a millisecond a trial in each. The reporter also reads the
   * object earlier versions sent (a blob merged with --merge-reports): see `outcomeInTransitOf`.
   */
  outcome?: string;
}

/**
 * Meta text naming the file that holds an Outcome in transit, rather than the Outcome's JSON (which begins with `{`).
 */
const IN_FILE = 'riddle-outcome-in-file:';

/**
 * Arms past which an Outcome whose attempts were written to a file travels through a file beside them. A suite of
 * 50,000 rows made an Outcome text of about 180 MB (two bytes a character): made whole in the worker, copied into
 * Node's channel, and kept in Vitest's task tree of both processes until the run's end. Smaller Outcomes travel as
 * text: a file for each would cost a one-attempt trial more than its text does.
 */
export const ARMS_IN_FILE = 256;

const ATTEMPTS_SUFFIX = '.attempts.jsonl';
/** The end of the name of an Outcome's file beside its attempts file (`<name>.attempts.jsonl`). */
export const OUTCOME_IN_TRANSIT_SUFFIX = '.outcome-in-transit.jsonl';

/**
 * What a trial's meta carries of its Outcome in transit: its JSON text, or, for an Outcome of more than ARMS_IN_FILE
 * arms whose attempts are in a file already, a reference to a file beside that one, written and read back a line at a
 * time (report/split-json: never the whole text at once on either side). Its attempts file is on this machine only,
 * so its Outcome may as well be.
 */
export function carriedOutcome(transit: OutcomeInTransit): string {
  const attempts = transit.outcome.attemptsFile;
  if (attempts === null || !path.isAbsolute(attempts) || transit.outcome.arms.length <= ARMS_IN_FILE)
    return JSON.stringify(transit);
  const base = attempts.endsWith(ATTEMPTS_SUFFIX) ? attempts.slice(0, -ATTEMPTS_SUFFIX.length) : attempts;
  const file = `${base}${OUTCOME_IN_TRANSIT_SUFFIX}`;
  writeAtomically(file, splitJsonLines(transit));
  return `${IN_FILE}${file}`;
}

/** An Outcome in transit that a meta names a file for, and the file could not be read back. */
export interface UnreadableOutcome {
  unreadable: string;
}

export const isUnreadableOutcome = (value: unknown): value is UnreadableOutcome =>
  typeof value === 'object' && value !== null && typeof (value as { unreadable?: unknown }).unreadable === 'string';

/**
 * The Outcome in transit a meta carries: parsed from its text or from the file it names (which is then removed), or the
 * object earlier versions sent; undefined when it carries none, the text itself when it is not JSON, and an
 * UnreadableOutcome saying why when the file it names cannot be read.
 */
export function outcomeInTransitOf(carried: unknown): unknown {
  if (typeof carried !== 'string') return carried;
  if (carried.startsWith(IN_FILE)) return readOutcomeInFile(carried.slice(IN_FILE.length));
  try {
    return JSON.parse(carried);
  } catch {
    return carried;
  }
}

function readOutcomeInFile(file: string): unknown {
  let value: unknown;
  try {
    value = readSplitJson(file);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { unreadable: `its Outcome could not be read from ${file}: ${why}` } satisfies UnreadableOutcome;
  }
  // Read once, by this run's reporter: the Outcome files it writes hold it from here on.
  rmSync(file, { force: true });
  return value;
}

declare module 'vitest' {
  interface TaskMeta {
    riddle?: RiddleTaskMeta;
    /**
     * On a suite: Outcomes of trials cut short after their test had already ended (the run was cancelled or the
     * test timed out), so they could not travel in the test's own meta.
     */
    riddleCutShort?: string[];
  }
}
