import { existsSync, readFileSync, statSync } from 'node:fs';
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
