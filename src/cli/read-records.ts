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

/** An earlier run found in a report folder that `riddle read` mentions beside the latest: incomplete, or unreadable. */
export type EarlierRun =
  | {
      kind: 'incomplete';
      runId: string;
      /** The run's own folder, relative to the report folder. */
      folder: string;
      why: string;
    }
  | {
      kind: 'unreadable';
      runId: string;
      /** The run's index file, relative to the report folder. */
      file: string;
      /** What is wrong with it (not JSON, not a run index, a field at fault), naming the file. */
      problem: string;
    };

/**
 * Why a run index says its run is incomplete, in words; null for a complete run. An index listing a missing trial is
 * incomplete whatever its `incomplete` flag says: a declared trial without an Outcome is never a complete result.
 */
export function incompleteRunReason(index: RunIndex): string | null {
  if (!index.incomplete && index.missing.length === 0) return null;
  const parts: string[] = [];
  if (index.interruptedBy !== null) parts.push(`interrupted by ${index.interruptedBy}`);
  if (index.missing.length > 0) parts.push(`${index.missing.length} declared trial(s) without an Outcome`);
  return parts.length > 0 ? parts.join('; ') : 'trials cut short';
}

/**
 * The earlier runs of a report folder to mention beside its latest, oldest first: those whose `runs/<id>/index.json`
 * is marked incomplete (the latest pointer never names them), and those whose index cannot be read, each with what
 * is wrong (a warning: an old run's bad file does not stop the latest from being read). None for anything else.
 */
export function earlierRuns(reportFolder: string): EarlierRun[] {
  const runs = path.join(reportFolder, 'runs');
  if (!existsSync(runs) || !statSync(runs).isDirectory()) return [];
  return readdirSync(runs)
    .sort()
    .flatMap((runId): EarlierRun[] => {
      const file = path.join(runs, runId, 'index.json');
      if (!existsSync(file)) return [];
      let why: string | null;
      try {
        why = incompleteRunReason(migrate('run', readJsonFile(file), file));
      } catch (error) {
        // A record at fault, or a file the system will not give (permissions, a folder by that name).
        const system = typeof (error as { code?: unknown } | null)?.code === 'string';
        if (!(error instanceof RecordError) && !system) throw error;
        const problem = (error as Error).message;
        return [{ kind: 'unreadable', runId, file: path.join('runs', runId, 'index.json'), problem }];
      }
      return why === null ? [] : [{ kind: 'incomplete', runId, folder: path.join('runs', runId), why }];
    });
}

/** True for a report folder holding runs but no latest pointer: no run written there has completed. */
export function noCompleteRun(target: string): boolean {
  return existsSync(path.join(target, 'runs')) && !existsSync(path.join(target, 'index.json'));
}
