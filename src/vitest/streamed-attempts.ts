import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import type { AttemptRecord, Outcome, RunIndex } from '../model/index.js';
import { DETAILED_ATTEMPTS, forEachJsonLine } from '../report/index.js';
import { leanAttempt } from '../run/index.js';

/** The folder a run's trials write their attempts into while they run, before the reporter files them. */
export function streamingDir(outputDir: string, runId: string): string {
  return path.join(outputDir, 'streaming', runId);
}

/** Outcomes ready to render and write, with the attempts file of each streamed one. */
export interface StreamedOutcomes {
  outcomes: Outcome[];
  attemptFiles: Map<Outcome, string>;
  /** Trials whose attempts file could not be read back, with why. */
  missing: RunIndex['missing'];
}

/**
 * Read back the attempts of Outcomes whose trials wrote them while they ran (`attemptsFile` an absolute path, set in
 * the worker): whole when the HTML report shows them in detail, lean copies (run/attempt-stream `leanAttempt`)
 * otherwise, so a trial of 100,000 attempts never holds every Observation in the reporter either. The renderers get
 * Outcomes with their attempts inline; the file itself is moved into the run folder when the artifacts are written.
 */
export function withStreamedAttempts(outcomes: readonly Outcome[]): StreamedOutcomes {
  const result: StreamedOutcomes = { outcomes: [], attemptFiles: new Map(), missing: [] };
  for (const outcome of outcomes) {
    const file = outcome.attemptsFile;
    if (file === null || !path.isAbsolute(file)) {
      result.outcomes.push(outcome);
      continue;
    }
    const whole = outcome.execution.order.length <= DETAILED_ATTEMPTS;
    const attempts: AttemptRecord[] = [];
    try {
      forEachJsonLine(file, (line) => {
        const attempt = line as AttemptRecord;
        attempts.push(whole ? attempt : leanAttempt(attempt));
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      result.missing.push({
        name: outcome.trial.name,
        file: outcome.trial.file,
        reason: `its attempts file could not be read: ${why}`,
      });
      continue;
    }
    const view: Outcome = { ...outcome, attempts, attemptsFile: null };
    result.outcomes.push(view);
    result.attemptFiles.set(view, file);
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
