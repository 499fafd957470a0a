import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttemptRecord, Outcome } from '../../../src/model/index.js';
import { prettyJsonChunks } from '../../../src/report/pretty-json.js';
import {
  readOutcomeFile,
  summarizeAttempts,
  summarizeAttemptsFile,
  writeOutcomeFiles,
  writeOutcomeFilesAsync,
  writeRunArtifacts,
  writeRunArtifactsAsync,
  type RunArtifacts,
} from '../../../src/report/index.js';

/** Paths given to `node:fs/promises` (each call a round trip through the thread pool), in order. */
const asyncPaths = vi.hoisted(() => [] as string[]);

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const counted =
    <A extends unknown[], R>(call: (...args: A) => R) =>
    (...args: A): R => {
      asyncPaths.push(String(args[0]));
      return call(...args);
    };
  const replaced = {
    ...actual,
    open: counted(actual.open),
    mkdir: counted(actual.mkdir),
    rename: counted(actual.rename),
    writeFile: counted(actual.writeFile),
  };
  return { ...replaced, default: replaced };
});

/** Compact Outcomes written a chunk at a time (report/pretty-json), counted. */
const chunked = vi.hoisted(() => ({ calls: 0 }));

vi.mock('../../../src/report/pretty-json.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/report/pretty-json.js')>();
  return {
    ...actual,
    prettyJsonChunks: (value: unknown) => {
      chunked.calls += 1;
      return actual.prettyJsonChunks(value);
    },
  };
});

const EXAMPLE = path.resolve('fixtures/artifacts/v3/example/outcomes');
const example = (): Outcome[] =>
  readdirSync(EXAMPLE)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readOutcomeFile(path.join(EXAMPLE, name)));

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-small-outcome-io-'));

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

/** An Outcome of the example with `count` attempts (copies of its first, numbered), its order to match. */
function withAttempts(count: number): Outcome {
  const [outcome] = example().filter((o) => o.attempts.length > 0 && o.arms.length === 1);
  const first = outcome?.attempts[0];
  if (!outcome || !first) throw new Error('the example has a trial of one arm');
  const attempts: AttemptRecord[] = Array.from({ length: count }, (_, i) => ({ ...first, index: i, sequence: i }));
  const order = attempts.map((a) => `${a.arm}#${a.index}`);
  return { ...outcome, attempts, execution: { ...outcome.execution, order } };
}

beforeEach(() => {
  asyncPaths.length = 0;
  chunked.calls = 0;
});

describe('the files of a small trial at the end of the run', () => {
  it('are written and read with no call through the thread pool, as the synchronous writer writes them', async () => {
    const outcomes = example();
    const reference = folder();
    writeRunArtifacts(run(reference, outcomes));
    const index = JSON.parse(readFileSync(path.join(reference, 'runs', 'run-1', 'index.json'), 'utf8'));
    // As the reporter has them: compact Outcomes from the workers, their attempts streamed into a file each.
    const streaming = folder();
    const compact: Outcome[] = [];
    const attemptFiles = new Map<Outcome, string>();
    const summaries = [];
    asyncPaths.length = 0;
    for (const [i, outcome] of outcomes.entries()) {
      const row = index.trials.find((t: { outcomeId: string }) => t.outcomeId === outcome.id);
      const streamed = path.join(streaming, `${i}.attempts.jsonl`);
      copyFileSync(path.join(reference, 'runs', 'run-1', row.outcome.replace(/\.json$/, '.attempts.jsonl')), streamed);
      const view: Outcome = { ...outcome, attempts: [], attemptsFile: streamed };
      compact.push(view);
      attemptFiles.set(view, streamed);
      summaries.push(await summarizeAttemptsFile(view, streamed));
    }
    expect(summaries.map((s) => s.count)).toEqual(outcomes.map((o) => o.attempts.length));
    const dir = folder();
    await writeRunArtifactsAsync({ ...run(dir, compact), attemptFiles, summaries });
    expect(tree(dir)).toEqual(tree(reference));
    // The run's own files (index, summary, page) are still written asynchronously; no trial's file is.
    const trialFiles = asyncPaths.filter((p) => p.startsWith(streaming) || p.includes(`${path.sep}outcomes`));
    expect(trialFiles).toEqual([]);
    expect(asyncPaths.some((p) => p.includes('index.html'))).toBe(true);
  });

  it('have their compact Outcome written by one JSON.stringify, the text the chunked writer writes', () => {
    const dir = folder();
    for (const [i, outcome] of example().entries()) {
      const file = path.join(dir, `trial-${i}.json`);
      writeOutcomeFiles(file, outcome);
      expect(chunked.calls).toBe(0);
      const compact = { ...outcome, attempts: [], attemptsFile: `trial-${i}.attempts.jsonl` };
      expect(readFileSync(file, 'utf8')).toBe(`${[...prettyJsonChunks(compact)].join('')}\n`);
      chunked.calls = 0;
    }
    writeOutcomeFiles(path.join(dir, 'large.json'), withAttempts(101));
    expect(chunked.calls).toBe(1);
  });

  it('are written and read a chunk at a time with turns of the event loop past a hundred attempts', async () => {
    const large = withAttempts(101);
    const [sync, async] = [folder(), folder()];
    writeOutcomeFiles(path.join(sync, 'trial.json'), large);
    asyncPaths.length = 0;
    await writeOutcomeFilesAsync(path.join(async, 'trial.json'), large);
    expect(asyncPaths.filter((p) => p.startsWith(async)).length).toBeGreaterThan(0);
    expect(tree(async)).toEqual(tree(sync));

    // A file past the first 64 KiB read: the loop gets turns between chunks, and the summary is the inline one.
    const long = withAttempts(1500);
    const dir = folder();
    writeOutcomeFiles(path.join(dir, 'long.json'), long);
    const lines = path.join(dir, 'long.attempts.jsonl');
    expect(readFileSync(lines).length).toBeGreaterThan(1 << 16);
    let fired = 0;
    const timer = setInterval(() => {
      fired += 1;
    }, 0);
    try {
      const summary = await summarizeAttemptsFile(long, lines);
      expect(fired).toBeGreaterThan(0);
      expect(summary).toEqual(summarizeAttempts(long));
    } finally {
      clearInterval(timer);
    }
  });
});
