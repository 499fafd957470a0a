import { parseArgs } from 'node:util';
import { compareRuns } from '../aggregate/index.js';
import { renderDiffMarkdown, renderDiffTerminal } from '../report/diff.js';
import { artifactJson, writeFileAtomic } from '../report/index.js';
import { loadRun } from './read-records.js';

const DIFF_USAGE = 'usage: riddle diff <runA> <runB> [--json | --markdown] [--out comparison.json]';

function usageError(problem: string): number {
  process.stderr.write(`riddle diff: ${problem}\n${DIFF_USAGE}\n`);
  return 2;
}

/**
 * `riddle diff <runA> <runB>`: pair two runs' Outcomes by trial and case and print the comparison (terminal, or
 * Markdown, or the `riddle.comparison/2` record with `--json`); `--out` also writes the record. Each run is an
 * Outcome file, a run index or a report/run folder. Exits 0 when every trial pairs and no verdict changed, 1 when
 * one did, 2 when the runs cannot be read (a bad record's file is named by the RecordError it throws).
 */
export async function diffCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, markdown: { type: 'boolean' }, out: { type: 'string' } },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [targetA, targetB] = positionals;
  if (targetA === undefined || targetB === undefined || positionals.length !== 2) {
    return usageError(`needs exactly two runs, got ${positionals.length}`);
  }
  if (values.json && values.markdown) return usageError('--json and --markdown are alternatives; pick one');
  const runA = loadRun(targetA);
  const runB = loadRun(targetB);
  const comparison = compareRuns(runA.outcomes, runB.outcomes, {
    a: { label: targetA, runId: runA.index?.runId ?? null },
    b: { label: targetB, runId: runB.index?.runId ?? null },
  });
  const costs = new Map([...runA.outcomes, ...runB.outcomes].map((o) => [o.id, o.cost] as const));
  if (values.out !== undefined) writeFileAtomic(values.out, artifactJson(comparison));
  if (values.json) process.stdout.write(artifactJson(comparison));
  else if (values.markdown) process.stdout.write(renderDiffMarkdown(comparison, costs));
  else process.stdout.write(`${renderDiffTerminal(comparison, costs)}\n`);
  return comparison.summary.verdictChanges === 0 && comparison.summary.unmatchedTrials === 0 ? 0 : 1;
}
