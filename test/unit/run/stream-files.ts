import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { AttemptRecord } from '../../../src/model/index.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** An attempts file's path in a folder of its own (not yet made), removed after the test. */
export function streamFile(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'riddle-stream-'));
  folders.push(folder);
  return path.join(folder, 'streaming', 'trial.attempts.jsonl');
}

/** The attempt lines of a file, parsed. */
export const lines = (file: string): AttemptRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AttemptRecord);
