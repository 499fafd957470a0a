import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { canonicalJson, type AttemptRecord, type Outcome } from '../../../src/model/index.js';
import { INLINE_ATTEMPTS } from '../../../src/report/outcome-files.js';
import { prettyJsonChunks } from '../../../src/report/pretty-json.js';
import {
  summarizeAttempts,
  summarizeAttemptsFile,
  writeOutcomeFiles,
  writeOutcomeFilesAsync,
  writeRunArtifacts,
  writeRunArtifactsAsync,
} from '../../../src/report/index.js';
import { asStreamed, exampleOutcomes, fileTree, runArtifacts } from './example-run.js';

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

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-small-outcome-io-'));

/** An Outcome of the example with `count` attempts (copies of its first, numbered), its order to match. */
function withAttempts(count: number): Outcome {
  const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0 && o.arms.length === 1);
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
    const outcomes = exampleOutcomes();
    const reference = folder();
    writeRunArtifacts(runArtifacts(reference, outcomes));
    // As the reporter has them: compact Outcomes from the workers, their attempts streamed into a file each.
    const streaming = folder();
    asyncPaths.length = 0;
    const { compact, attemptFiles, summaries } = await asStreamed(outcomes, reference, streaming);
    expect(summaries.map((s) => s.count)).toEqual(outcomes.map((o) => o.attempts.length));
    const dir = folder();
    await writeRunArtifactsAsync({ ...runArtifacts(dir, compact), attemptFiles, summaries });
    expect(fileTree(dir)).toEqual(fileTree(reference));
    // Every streamed file was moved into the run folder, or read into its Outcome and removed.
    expect(readdirSync(streaming)).toEqual([]);
    // The run's own files (index, summary, page) are still written asynchronously; no trial's file is.
    const trialFiles = asyncPaths.filter((p) => p.startsWith(streaming) || p.includes(`${path.sep}outcomes`));
    expect(trialFiles).toEqual([]);
    expect(asyncPaths.some((p) => p.includes('index.html'))).toBe(true);
  });

  it('have their compact Outcome written by one JSON.stringify, the text the chunked writer writes', () => {
    const dir = folder();
    for (const [i, outcome] of exampleOutcomes().entries()) {
      const file = path.join(dir, `trial-${i}.json`);
      writeOutcomeFiles(file, outcome);
      expect(chunked.calls).toBe(0);
      // At most INLINE_ATTEMPTS attempts are stored in the Outcome, each as its canonical JSON (its line's order).
      const stored =
        outcome.attempts.length <= INLINE_ATTEMPTS
          ? { ...outcome, attempts: outcome.attempts.map((a) => JSON.parse(canonicalJson(a))), attemptsFile: null }
          : { ...outcome, attempts: [], attemptsFile: `trial-${i}.attempts.jsonl` };
      expect(readFileSync(file, 'utf8')).toBe(`${[...prettyJsonChunks(stored)].join('')}\n`);
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
    expect(fileTree(async)).toEqual(fileTree(sync));

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
