import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { inject } from 'vitest';
import type { AttemptRecord, Outcome } from '../model/index.js';
import type { RunFacts } from '../observe/index.js';
import { forEachJsonLine, SampleReasonTally, type SampleReason } from '../report/index.js';
import { AttemptStream, HeldAttempts, type AttemptSink } from '../run/index.js';
import { attemptsFileSlug } from './attempts-file-name.js';

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
    /** The Vitest project's root (absolute), provided to each project's workers by the riddle reporter. */
    riddleRoot: string;
    /**
     * The project's git state, lockfile and machine (observe/environment `RunFacts`), captured once for the run by the
     * riddle reporter and provided to each project's workers; null for a project the run does not test.
     */
    riddleRunFacts: RunFacts | null;
    /** riddle's version and the Vitest version the project resolves, read once for the run by the riddle reporter. */
    riddleHarness: { riddle: string; vitest: string };
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
  const slug = attemptsFileSlug(trial);
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
 * Why attempts did not pass, for a failing trial's message, when its attempts were written out while it ran: read from
 * the file a line at a time (report/sample-reasons), holding none of them; undefined when the Outcome holds its
 * attempts. Reading them all back into the worker held a lean copy of each, hundreds of megabytes for a trial of
 * 100,000 failing attempts whose reasons all differ.
 */
export function samplesForMessage(outcome: Outcome): SampleReason[] | undefined {
  const file = outcome.attemptsFile;
  if (file === null || !path.isAbsolute(file)) return undefined;
  const tally = new SampleReasonTally(outcome);
  forEachJsonLine(file, (line) => tally.add(line as AttemptRecord));
  return tally.reasons();
}
