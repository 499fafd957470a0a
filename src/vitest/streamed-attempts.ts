import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import type { Outcome, RunIndex } from '../model/index.js';
import { OutcomeFromTransit, type OutcomeInTransit } from '../run/outcome-transit.js';
import { summarizeAttempts, summarizeAttemptsFile, type AttemptsSummary } from '../report/index.js';

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
