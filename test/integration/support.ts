import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { migrate, type Outcome, type RunIndex } from '../../src/model/index.js';
import { readOutcomeFile } from '../../src/report/index.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fixture = (name: string) => path.join(repoRoot, 'fixtures', name);
const vitestBin = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');

export interface VitestRun {
  exitCode: number;
  output: string;
}

/** Run a real `vitest run` in a project folder, colours off, and return its exit code and combined output. */
export async function runVitest(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
  /** Called with each line of output as it comes, e.g. to release a fixture waiting for the test to see something. */
  onLine?: (line: string) => void,
): Promise<VitestRun> {
  const run = execa(process.execPath, [vitestBin, 'run', ...args], {
    cwd,
    reject: false,
    all: true,
    env: { NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
    extendEnv: true,
    // A safety net against a hung process, not a speed requirement: a loaded machine may take minutes.
    timeout: 900_000,
  });
  if (onLine) {
    let partial = '';
    run.all?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
  }
  const result = await run;
  return { exitCode: result.exitCode ?? -1, output: result.all ?? '' };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `riddle-${prefix}-`));
}

/** The latest run written under a report folder: its index and every Outcome, validated by their schemas. */
export function readLatestRun(outputDir: string): { index: RunIndex; outcomes: Outcome[] } {
  const indexPath = path.join(outputDir, 'index.json');
  const index = migrate('run', JSON.parse(readFileSync(indexPath, 'utf8')), indexPath);
  const outcomes = index.trials.map((row) => {
    const file = path.join(outputDir, row.outcome);
    return readOutcomeFile(file);
  });
  return { index, outcomes };
}

export function outcomeNamed(outcomes: readonly Outcome[], name: string): Outcome {
  const found = outcomes.find((o) => o.trial.name === name);
  if (!found) throw new Error(`no Outcome for trial "${name}" (have: ${outcomes.map((o) => o.trial.name).join(', ')})`);
  return found;
}

const VOLATILE = new Set([
  'startedAt',
  'finishedAt',
  'durationMs',
  'wallMs',
  'cpuMs',
  'peakRssBytes',
  'atMs',
  'latency',
  'meanMs',
  'p50Ms',
  'p95Ms',
]);

/** An Outcome with its timings removed: what must be identical between equivalent runs. */
export function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !VOLATILE.has(key))
        .map(([key, member]) => [key, withoutTimings(member)]),
    );
  }
  return value;
}

/** sha256 of a file's bytes. */
export const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every file under a folder with its sha256: to show that a run left earlier files untouched. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = sha256(full);
    }
  };
  walk(dir);
  return out;
}
