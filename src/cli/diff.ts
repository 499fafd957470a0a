import { parseArgs } from 'node:util';
import { compareRuns } from '../aggregate/index.js';
import { renderDiffMarkdown, renderDiffTerminal } from '../report/diff.js';
import { artifactJson, writeFileAtomic } from '../report/index.js';
import { existsSync, statSync } from 'node:fs';
import { migrate, type Comparison, type Outcome } from '../model/index.js';
import { loadRun, readJsonFile } from './read-records.js';

const DIFF_USAGE =
  'usage: riddle diff <runA> <runB> [--json | --markdown] [--out comparison.json]\n       riddle diff <comparison.json> [--json | --markdown]';

function usageError(problem: string): number {
  process.stderr.write(`riddle diff: ${problem}\n${DIFF_USAGE}\n`);
  return 2;
}

/**
 * `riddle diff <runA> <runB>`: pair two runs' Outcomes by trial and case and print the comparison (terminal, or
 * Markdown, or the `riddle.comparison` record with `--json`); `--out` also writes the record. Each run is an
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
  if (values.json && values.markdown) return usageError('--json and --markdown are alternatives; pick one');
  // One argument: a stored comparison record (any version, migrated), printed again without the runs.
  const stored = positionals.length === 1 && targetA !== undefined ? storedComparison(targetA) : null;
  if (stored === null && (targetA === undefined || targetB === undefined || positionals.length !== 2)) {
    return usageError(`needs exactly two runs or one comparison record, got ${positionals.length}`);
  }
  if (stored !== null && values.out !== undefined) return usageError('--out writes a new comparison; give two runs');
  let comparison: Comparison;
  let costs = new Map<string, Outcome['cost']>();
  if (stored !== null) comparison = stored;
  else {
    const runA = loadRun(targetA as string);
    const runB = loadRun(targetB as string);
    comparison = compareRuns(runA.outcomes, runB.outcomes, {
      a: { label: targetA as string, runId: runA.index?.runId ?? null },
      b: { label: targetB as string, runId: runB.index?.runId ?? null },
    });
    costs = new Map([...runA.outcomes, ...runB.outcomes].map((o) => [o.id, o.cost] as const));
  }
  if (values.out !== undefined) writeFileAtomic(values.out, artifactJson(comparison));
  if (values.json) process.stdout.write(artifactJson(comparison));
  else if (values.markdown) process.stdout.write(renderDiffMarkdown(comparison, costs));
  else process.stdout.write(`${renderDiffTerminal(comparison, costs)}\n`);
  return comparison.summary.verdictChanges === 0 && comparison.summary.unmatchedTrials === 0 ? 0 : 1;
}

/**
 * The comparison record in `target` when it is one (a `riddle.comparison/N` JSON file, read through `migrate` so
 * comparisons written by earlier versions print too); null when it is anything else (a run, for the error to name).
 */
function storedComparison(target: string): Comparison | null {
  if (!target.endsWith('.json') || !existsSync(target) || !statSync(target).isFile()) return null;
  const data = readJsonFile(target);
  const schema = typeof data === 'object' && data !== null ? (data as { schema?: unknown }).schema : undefined;
  if (typeof schema !== 'string' || !schema.startsWith('riddle.comparison/')) return null;
  return migrate('comparison', data, target);
}
