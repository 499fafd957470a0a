import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import type { Outcome, RunIndex } from '../model/index.js';
import { OutcomeFromTransit, type OutcomeInTransit } from '../run/outcome-transit.js';
import { summarizeAttempts, summarizeAttemptsFile, type AttemptsSummary } from '../report/index.js';
import { attemptsFileSlug, isAttemptsFileOf } from './attempts-file-name.js';
import { OUTCOME_IN_TRANSIT_SUFFIX } from './meta.js';

/** The folder a run's trials write their attempts into while they run, before the reporter files them. */
export function streamingDir(outputDir: string, runId: string): string {
  return path.join(outputDir, 'streaming', runId);
}

/** Outcomes ready to render and write, with the attempts file and the attempts' summary of each streamed one. */
export interface StreamedOutcomes {
  outcomes: Outcome[];
  /** By position in `outcomes`: what the reports show of a streamed Outcome's attempts; undefined for the others. */
  summaries: (AttemptsSummary | undefined)[];
  attemptFiles: Map<Outcome, string>;
  /** Trials whose attempts file could not be read back, with why. */
  missing: RunIndex['missing'];
}

/**
 * Summarise the attempts of Outcomes whose trials wrote them while they ran (`attemptsFile` an absolute path, set in
 * the worker), reading each file a chunk at a time (report/attempts-summary): the reporter never holds a trial's
 * attempts, however many, and the file itself is moved into the run folder when the artifacts are written. An Outcome
 * that travelled without its order and cost rows gets them back from the same reading (run/outcome-transit). Outcomes
 * holding their attempts inline pass as they are, summarised once for every renderer.
 */
export async function readStreamedAttempts(received: readonly OutcomeInTransit[]): Promise<StreamedOutcomes> {
  const result: StreamedOutcomes = { outcomes: [], summaries: [], attemptFiles: new Map(), missing: [] };
  for (const transit of received) {
    let outcome = transit.outcome;
    const file = outcome.attemptsFile;
    const { leftOut } = transit;
    if (file === null || (leftOut === null && !path.isAbsolute(file))) {
      result.outcomes.push(outcome);
      // Summarised once here rather than by each renderer (terminal, HTML) for itself.
      result.summaries.push(file === null ? summarizeAttempts(outcome) : undefined);
      continue;
    }
    try {
      if (leftOut === null) result.summaries.push(await summarizeAttemptsFile(outcome, file));
      else {
        const whole = new OutcomeFromTransit({ outcome, leftOut }, file);
        const summary = await summarizeAttemptsFile(outcome, file, {
          attempts: leftOut.attempts,
          each: (attempt) => whole.take(attempt),
        });
        outcome = whole.finish();
        result.summaries.push(summary);
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      result.missing.push({
        name: outcome.trial.name,
        file: outcome.trial.file,
        reason: `its attempts file could not be read: ${why}`,
      });
      continue;
    }
    result.outcomes.push(outcome);
    result.attemptFiles.set(outcome, file);
  }
  return result;
}

/** Remove the run's streaming folder once its files are filed, and the streaming folder when nothing else is in it. */
export function removeStreamingDir(dir: string): void {
  for (const folder of [dir, path.dirname(dir)]) {
    if (!existsSync(folder) || readdirSync(folder).length > 0) return;
    rmdirSync(folder);
  }
}

/** The run folder's folder for attempts files of trials that left no Outcome. */
export const UNFILED_DIR = 'unfiled';

/** An attempts file no Outcome names, and the missing trial it is of when that is clear. */
export interface UnfiledAttempts {
  /** Its name in the streaming folder (and in the run folder's `unfiled`). */
  name: string;
  /** Lines written (finished attempts on disk). */
  attempts: number;
}

/**
 * The attempts files left in a run's streaming folder that no received Outcome names: trials whose worker died (killed,
 * out of memory) or whose test threw after attempts were written. Their finished attempts are the only record of what
 * those trials did; the missing trials they can be told to be of (by their names' file slug, when only one missing
 * trial has it) get a reason saying where they are kept. A worker killed outright may have left its last lines
 * unwritten; what is on disk is kept as it is.
 */
export function unfiledAttempts(
  dir: string,
  filed: ReadonlyMap<Outcome, string>,
  missing: RunIndex['missing'],
): { unfiled: UnfiledAttempts[]; missing: RunIndex['missing'] } {
  if (!existsSync(dir)) return { unfiled: [], missing };
  const named = new Set([...filed.values()].map((file) => path.basename(file)));
  const unfiled = readdirSync(dir)
    .filter((name) => name.endsWith('.attempts.jsonl') && !named.has(name))
    .sort()
    .map((name) => ({ name, attempts: lineCount(path.join(dir, name)) }));
  if (unfiled.length === 0) return { unfiled, missing };
  const slugs = missing.map((entry) => attemptsFileSlug(entry.name));
  return {
    unfiled,
    missing: missing.map((entry, i) => {
      const slug = slugs[i] as string;
      const files = unfiled.filter((file) => isAttemptsFileOf(file.name, slug));
      // Told apart only when one missing trial has the slug and one file is of it.
      if (slugs.indexOf(slug) !== slugs.lastIndexOf(slug) || files.length !== 1) return entry;
      const [file] = files as [UnfiledAttempts];
      return {
        ...entry,
        reason: `${entry.reason}; the ${file.attempts} attempts it finished are kept in ${UNFILED_DIR}/${file.name}`,
      };
    }),
  };
}

/**
 * Move the unfiled attempts files into the run folder's `unfiled`, with any Outcome in transit left beside them
 * (vitest/meta `carriedOutcome`): the reporter removes each one it reads, so one still here is of a trial whose test
 * never reported it (its worker died after writing it), and it is kept with that trial's attempts.
 */
export function fileUnfiledAttempts(dir: string, runDir: string, unfiled: readonly UnfiledAttempts[]): void {
  if (unfiled.length === 0) return;
  const into = path.join(runDir, UNFILED_DIR);
  mkdirSync(into, { recursive: true });
  const outcomes = readdirSync(dir).filter((name) => name.endsWith(OUTCOME_IN_TRANSIT_SUFFIX));
  for (const name of [...unfiled.map((file) => file.name), ...outcomes])
    renameSync(path.join(dir, name), path.join(into, name));
}

/** Lines in a file, read a chunk at a time. */
function lineCount(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 16);
    let lines = 0;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer))
      for (let at = buffer.indexOf(10); at !== -1 && at < read; at = buffer.indexOf(10, at + 1)) lines += 1;
    return lines;
  } finally {
    closeSync(fd);
  }
}
