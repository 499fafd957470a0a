import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import {
  readOutcomeFile,
  summarizeAttemptsFile,
  writeRunArtifacts,
  writeRunArtifactsAsync,
  type RunArtifacts,
} from '../../../src/report/index.js';

const EXAMPLE = path.resolve('fixtures/artifacts/v3/example/outcomes');
const example = (): Outcome[] =>
  readdirSync(EXAMPLE)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readOutcomeFile(path.join(EXAMPLE, name)));

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-artifacts-async-'));

const run = (outputDir: string, outcomes: readonly Outcome[]): RunArtifacts => ({
  outputDir,
  runId: 'run-1',
  startedAt: 's',
  finishedAt: 'f',
  versions: { riddle: '0', vitest: '4.1.12', node: 'v20' },
  outcomes,
  missing: [],
});

/** Every file under a folder, by relative path, with its content. */
function tree(dir: string): Record<string, string> {
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

describe("the reporter's asynchronous artifact writer", () => {
  it('writes the same files as the synchronous writer, byte for byte', async () => {
    const outcomes = example();
    const [sync, async] = [folder(), folder()];
    writeRunArtifacts(run(sync, outcomes));
    await writeRunArtifactsAsync(run(async, outcomes));
    const written = tree(async);
    expect(Object.keys(written).filter((name) => name.endsWith('.attempts.jsonl'))).toHaveLength(outcomes.length);
    expect(written).toEqual(tree(sync));
  });

  it('moves attempts files written while the trials ran into place, and renders their attempts from summaries', async () => {
    const outcomes = example();
    const reference = folder();
    writeRunArtifacts(run(reference, outcomes));
    const index = JSON.parse(readFileSync(path.join(reference, 'runs', 'run-1', 'index.json'), 'utf8'));
    // As the reporter has them: compact Outcomes from the workers, their attempts in a streaming file each.
    const streaming = folder();
    const compact: Outcome[] = [];
    const attemptFiles = new Map<Outcome, string>();
    const summaries = [];
    for (const [i, outcome] of outcomes.entries()) {
      const row = index.trials.find((t: { outcomeId: string }) => t.outcomeId === outcome.id);
      const lines = path.join(reference, 'runs', 'run-1', row.outcome.replace(/\.json$/, '.attempts.jsonl'));
      const streamed = path.join(streaming, `${i}.attempts.jsonl`);
      copyFileSync(lines, streamed);
      const view: Outcome = { ...outcome, attempts: [], attemptsFile: streamed };
      compact.push(view);
      attemptFiles.set(view, streamed);
      summaries.push(await summarizeAttemptsFile(view, streamed));
    }
    const dir = folder();
    await writeRunArtifactsAsync({ ...run(dir, compact), attemptFiles, summaries });
    expect(readdirSync(streaming)).toEqual([]);
    expect(tree(dir)).toEqual(tree(reference));
  });

  it('gives the event loop turns while it writes, so timers fire before it ends', async () => {
    const outcomes = example();
    let fired = 0;
    const timer = setInterval(() => {
      fired += 1;
    }, 0);
    try {
      const writing = writeRunArtifactsAsync(run(folder(), outcomes));
      const firedBefore = await writing.then(() => fired);
      expect(firedBefore).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
    // The synchronous writer holds the loop from start to end.
    fired = 0;
    const interval = setInterval(() => {
      fired += 1;
    }, 0);
    writeRunArtifacts(run(folder(), outcomes));
    const firedDuring = fired;
    clearInterval(interval);
    expect(firedDuring).toBe(0);
  });

  it('refuses to write over an earlier run folder', async () => {
    const dir = folder();
    await writeRunArtifactsAsync(run(dir, example()));
    await expect(writeRunArtifactsAsync(run(dir, example()))).rejects.toThrow(/already exists/);
    expect(existsSync(path.join(dir, 'index.json'))).toBe(true);
  });
});
