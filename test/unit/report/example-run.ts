import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, type Outcome } from '../../../src/model/index.js';
import {
  readOutcomeFile,
  summarizeAttemptsFile,
  type AttemptsSummary,
  type RunArtifacts,
} from '../../../src/report/index.js';

/** A real run of the example (claims contradicted by receipts, failing samples, many arms), migrated. */
const EXAMPLE = path.resolve('fixtures/artifacts/v3/example/outcomes');

/** The example run's Outcomes, read and migrated, in file-name order. */
export const exampleOutcomes = (): Outcome[] =>
  readdirSync(EXAMPLE)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readOutcomeFile(path.join(EXAMPLE, name)));

/** A run's artifacts to write into `outputDir`, with fixed ids, times and versions. */
export const runArtifacts = (outputDir: string, outcomes: readonly Outcome[]): RunArtifacts => ({
  outputDir,
  runId: 'run-1',
  startedAt: 's',
  finishedAt: 'f',
  versions: { riddle: '0', vitest: '4.1.12', node: 'v20' },
  outcomes,
  missing: [],
});

/** Every file under a folder, by relative path, with its content. */
export function fileTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/**
 * A run's Outcomes as the reporter has them, from a run `writeRunArtifacts` wrote into `reference`: compact, each one's
 * attempts in a file of its own under `streaming` (copied from the reference's), with their summaries read from it.
 */
export async function asStreamed(
  outcomes: readonly Outcome[],
  reference: string,
  streaming: string,
): Promise<{ compact: Outcome[]; attemptFiles: Map<Outcome, string>; summaries: AttemptsSummary[] }> {
  const index = JSON.parse(readFileSync(path.join(reference, 'runs', 'run-1', 'index.json'), 'utf8'));
  const compact: Outcome[] = [];
  const attemptFiles = new Map<Outcome, string>();
  const summaries: AttemptsSummary[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    const row = index.trials.find((t: { outcomeId: string }) => t.outcomeId === outcome.id);
    const streamed = path.join(streaming, `${i}.attempts.jsonl`);
    const stored = path.join(reference, 'runs', 'run-1', row.outcome.replace(/\.json$/, '.attempts.jsonl'));
    // A trial of a few attempts is stored with them inline (report/outcome-files INLINE_ATTEMPTS): its lines written
    // here as its stream would have written them.
    if (existsSync(stored)) copyFileSync(stored, streamed);
    else writeFileSync(streamed, outcome.attempts.map((attempt) => `${canonicalJson(attempt)}\n`).join(''));
    const view: Outcome = { ...outcome, attempts: [], attemptsFile: streamed };
    compact.push(view);
    attemptFiles.set(view, streamed);
    summaries.push(await summarizeAttemptsFile(view, streamed));
  }
  return { compact, attemptFiles, summaries };
}
