import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeAttempts } from '../../../src/report/index.js';
import {
  fileUnfiledAttempts,
  readStreamedAttempts,
  removeStreamingDir,
  unfiledAttempts,
} from '../../../src/vitest/streamed-attempts.js';
import { exampleOutcomes } from '../report/example-run.js';

describe('readStreamedAttempts', () => {
  it('summarises an Outcome that holds its attempts inline once, for every renderer', async () => {
    const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0);
    if (!outcome) throw new Error('no Outcome with attempts');
    const read = await readStreamedAttempts([{ outcome: { ...outcome, attemptsFile: null }, leftOut: null }]);
    expect(read.outcomes).toHaveLength(1);
    expect(read.summaries).toEqual([summarizeAttempts(outcome)]);
    expect(read.summaries[0]?.count).toBe(outcome.attempts.length);
    expect(read.attemptFiles.size).toBe(0);
  });

  it("files an Outcome in transit left in the streaming folder with its trial's unfiled attempts, and the folder goes", () => {
    // A worker that died after writing a 300-row suite's Outcome beside its attempts, before its test reported it.
    const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-unfiled-'));
    const streaming = path.join(root, 'streaming', 'run-1');
    const runDir = path.join(root, 'runs', 'run-1');
    mkdirSync(streaming, { recursive: true });
    writeFileSync(path.join(streaming, 'rows-0123456789ab.attempts.jsonl'), '{}\n{}\n');
    writeFileSync(path.join(streaming, 'rows-0123456789ab.outcome-in-transit.jsonl'), '{"outcome":{}}');
    const { unfiled, missing } = unfiledAttempts(streaming, new Map(), [
      { name: 'rows', file: 'a.test.ts', reason: 'its worker ended' },
    ]);
    expect(unfiled).toEqual([{ name: 'rows-0123456789ab.attempts.jsonl', attempts: 2 }]);
    expect(missing[0]?.reason).toBe(
      'its worker ended; the 2 attempts it finished are kept in unfiled/rows-0123456789ab.attempts.jsonl',
    );
    fileUnfiledAttempts(streaming, runDir, unfiled);
    removeStreamingDir(streaming);
    expect(readdirSync(path.join(runDir, 'unfiled')).sort()).toEqual([
      'rows-0123456789ab.attempts.jsonl',
      'rows-0123456789ab.outcome-in-transit.jsonl',
    ]);
    expect(existsSync(path.join(root, 'streaming'))).toBe(false);
  });
});
