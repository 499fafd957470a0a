import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import type { AttemptRecord, Outcome } from '../model/index.js';
import { forEachJsonLine } from '../report/index.js';
import { AttemptStream, HeldAttempts, leanAttempt, type AttemptSink } from '../run/index.js';

/** What the riddle reporter hands to test workers at the start of each run: where trials write their attempts. */
export interface RiddleAttemptsProvided {
  /** Absolute folder of this run's attempt files (reporter: `<outputDir>/streaming/<runId>`). */
  dir: string;
  /** Absolute report folder (`outputDir`): the outside-writes watch leaves it out, wherever it is in the project. */
  reports: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    riddleAttempts: RiddleAttemptsProvided;
  }
}

/**
 * Where a trial's attempts go in the folder the riddle reporter provided for this run, or null when no riddle reporter
 * runs (an IDE, another reporter, a shard writing a blob for --merge-reports): the attempts then travel inside the
 * Outcome as before. A few attempts are held in memory and stay in the Outcome when the trial ends soon enough
 * (run/held-attempts); past that they are written to a stream file whose name is the trial's name made safe, and
 * random, so trials never share one.
 */
export function attemptStreamFor(trial: string): AttemptSink | null {
  const provided = inject('riddleAttempts') as RiddleAttemptsProvided | undefined;
  if (typeof provided?.dir !== 'string' || !path.isAbsolute(provided.dir)) return null;
  const { dir } = provided;
  const slug =
    trial
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'trial';
  return new HeldAttempts(
    () => new AttemptStream(path.join(dir, `${slug}-${randomBytes(6).toString('hex')}.attempts.jsonl`)),
  );
}

/** The report folder the riddle reporter provided for this run, or null when no riddle reporter runs. */
export function providedReportDir(): string | null {
  const provided = inject('riddleAttempts') as RiddleAttemptsProvided | undefined;
  return typeof provided?.reports === 'string' && path.isAbsolute(provided.reports) ? provided.reports : null;
}

/**
 * The Outcome with its attempts inline again (lean copies) when they were written out while the trial ran: what the
 * failure message needs to quote why attempts did not pass. Read only for a failing trial's message.
 */
export function withAttemptsForMessage(outcome: Outcome): Outcome {
  const file = outcome.attemptsFile;
  if (file === null || !path.isAbsolute(file)) return outcome;
  const attempts: AttemptRecord[] = [];
  forEachJsonLine(file, (line) => attempts.push(leanAttempt(line as AttemptRecord)));
  return { ...outcome, attempts, attemptsFile: null };
}
