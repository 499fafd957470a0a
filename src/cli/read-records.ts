import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { migrate, RecordError, type Outcome, type RunIndex } from '../model/index.js';
import { readOutcomeFile } from '../report/index.js';

/** Parse a JSON file, naming the file (and the position) when it is not JSON. */
export function readJsonFile(file: string): unknown {
  if (!existsSync(file)) throw new RecordError(file, 'no such file');
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RecordError(
      file,
      `not valid JSON (${error instanceof Error ? error.message : String(error)}); the file may be truncated or corrupt`,
    );
  }
}

export interface LoadedRun {
  /** Folder the index's relative Outcome paths resolve against. */
  base: string;
  index: RunIndex | null;
  outcomes: Outcome[];
}

/**
 * Load Outcomes from an Outcome file, a run index file, or a report/run folder (its index.json). Each record is
 * validated and migrated; a bad one fails with its path and the field at fault.
 */
export function loadRun(target: string): LoadedRun {
  const file = existsSync(target) && statSync(target).isDirectory() ? path.join(target, 'index.json') : target;
  const data = readJsonFile(file);
  const schema = typeof data === 'object' && data !== null ? (data as { schema?: unknown }).schema : undefined;
  if (typeof schema === 'string' && schema.startsWith('riddle.outcome/')) {
    return { base: path.dirname(file), index: null, outcomes: [readOutcomeFile(file)] };
  }
  const index = migrate('run', data, file);
  const base = path.dirname(file);
  const outcomes = index.trials.map((row) => {
    const outcomeFile = path.join(base, row.outcome);
    return readOutcomeFile(outcomeFile);
  });
  return { base, index, outcomes };
}

/** An incomplete run found in a report folder, with why it is incomplete. */
export interface IncompleteRun {
  runId: string;
  /** The run's own folder, relative to the report folder. */
  folder: string;
  why: string;
}

/** Why a run index says its run is incomplete, in words; null for a complete run. */
export function incompleteRunReason(index: RunIndex): string | null {
  if (!index.incomplete) return null;
  const parts: string[] = [];
  if (index.interruptedBy !== null) parts.push(`interrupted by ${index.interruptedBy}`);
  if (index.missing.length > 0) parts.push(`${index.missing.length} declared trial(s) without an Outcome`);
  return parts.length > 0 ? parts.join('; ') : 'trials cut short';
}

/**
 * The incomplete runs kept in a report folder (`runs/<id>/index.json` marked incomplete), oldest first; none for
 * anything else. The folder's latest pointer never names them, so `riddle read` lists them beside the latest run.
 */
export function incompleteRuns(reportFolder: string): IncompleteRun[] {
  const runs = path.join(reportFolder, 'runs');
  if (!existsSync(runs) || !statSync(runs).isDirectory()) return [];
  return readdirSync(runs)
    .sort()
    .flatMap((runId) => {
      const file = path.join(runs, runId, 'index.json');
      if (!existsSync(file)) return [];
      const why = incompleteRunReason(migrate('run', readJsonFile(file), file));
      return why === null ? [] : [{ runId, folder: path.join('runs', runId), why }];
    });
}

/** True for a report folder holding runs but no latest pointer: no run written there has completed. */
export function noCompleteRun(target: string): boolean {
  return existsSync(path.join(target, 'runs')) && !existsSync(path.join(target, 'index.json'));
}
