import type { Outcome } from '../model/index.js';
import { neutraliseText, renderTerminal } from '../report/index.js';
import { earlierRuns, incompleteRunReason, loadRun, noCompleteRun, type LoadedRun } from './read-records.js';

/** Where `riddle read` writes: its summary and notes to `out`, warnings to `err`. */
export interface ReadOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const processOutput: ReadOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

const trials = (count: number) => `${count} trial${count === 1 ? '' : 's'}`;

/**
 * Why the run read is incomplete, in words, or null when it is complete: its index says so (interrupted, a declared
 * trial without an Outcome, one cut short), or, for Outcome files read alone, an Outcome was cut short.
 */
export function readIncompleteReason(loaded: Pick<LoadedRun, 'index' | 'outcomes'>): string | null {
  if (loaded.index) return incompleteRunReason(loaded.index);
  const cutShort = loaded.outcomes.filter((o: Outcome) => o.execution.incomplete !== null).length;
  return cutShort > 0 ? `${trials(cutShort)} cut short` : null;
}

/**
 * `riddle read`'s exit code for the run read: 1 when it is incomplete (a run that did not complete is no passing
 * result, whatever its trials' tests) or a trial's test fails, else 0. Earlier runs of the folder do not count.
 */
export function readExitCode(loaded: Pick<LoadedRun, 'index' | 'outcomes'>): 0 | 1 {
  if (readIncompleteReason(loaded) !== null) return 1;
  return loaded.outcomes.every((o) => o.judgment.testOutcome !== 'fail') ? 0 : 1;
}

/** The earlier runs of a report folder beside the one read: incomplete ones listed, unreadable ones as warnings. */
function writeEarlierRuns(target: string, output: ReadOutput): void {
  for (const run of earlierRuns(target)) {
    if (run.kind === 'incomplete') output.out(neutraliseText(`incomplete run ${run.folder}: ${run.why}\n`));
    else
      output.err(
        neutraliseText(
          `riddle read: warning: skipped the earlier run ${run.file}, which cannot be read: ${run.problem}\n`,
        ),
      );
  }
}

/**
 * `riddle read <target>`: validate a run's records, print its summary and say when the run is incomplete; list the
 * report folder's earlier incomplete runs and warn of unreadable ones. Returns the exit code (see `readExitCode`); a
 * record of the run read that cannot be read throws (RecordError, exit 2).
 */
export function readCommand(target: string, output: ReadOutput = processOutput): number {
  if (noCompleteRun(target)) {
    output.out(`no complete run in ${target}\n`);
    writeEarlierRuns(target, output);
    return 1;
  }
  const loaded = loadRun(target);
  output.out(`${renderTerminal(loaded.outcomes, loaded.index?.missing ?? [])}\n`);
  const incomplete = readIncompleteReason(loaded);
  if (incomplete !== null)
    output.out(`incomplete run: ${neutraliseText(incomplete)} (exit 1: an incomplete run is not a passing result)\n`);
  writeEarlierRuns(target, output);
  return readExitCode(loaded);
}
