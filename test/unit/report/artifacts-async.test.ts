import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunArtifacts, writeRunArtifactsAsync } from '../../../src/report/index.js';
import { INLINE_ATTEMPTS } from '../../../src/report/outcome-files.js';
import { asStreamed, exampleOutcomes, fileTree, runArtifacts } from './example-run.js';

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-artifacts-async-'));

describe("the reporter's asynchronous artifact writer", () => {
  it('writes the same files as the synchronous writer, byte for byte', async () => {
    const outcomes = exampleOutcomes();
    const [sync, async] = [folder(), folder()];
    writeRunArtifacts(runArtifacts(sync, outcomes));
    await writeRunArtifactsAsync(runArtifacts(async, outcomes));
    const written = fileTree(async);
    // A trial of a few attempts is stored with them inline (INLINE_ATTEMPTS); the others beside their Outcome.
    const large = outcomes.filter((outcome) => outcome.attempts.length > INLINE_ATTEMPTS);
    expect(large.length).toBeGreaterThan(0);
    expect(large.length).toBeLessThan(outcomes.length);
    expect(Object.keys(written).filter((name) => name.endsWith('.attempts.jsonl'))).toHaveLength(large.length);
    expect(written).toEqual(fileTree(sync));
  });

  it('moves attempts files written while the trials ran into place, and renders their attempts from summaries', async () => {
    const outcomes = exampleOutcomes();
    const reference = folder();
    writeRunArtifacts(runArtifacts(reference, outcomes));
    // As the reporter has them: compact Outcomes from the workers, their attempts in a streaming file each.
    const streaming = folder();
    const { compact, attemptFiles, summaries } = await asStreamed(outcomes, reference, streaming);
    const dir = folder();
    await writeRunArtifactsAsync({ ...runArtifacts(dir, compact), attemptFiles, summaries });
    expect(readdirSync(streaming)).toEqual([]);
    expect(fileTree(dir)).toEqual(fileTree(reference));
  });

  it('gives the event loop turns while it writes, so timers fire before it ends', async () => {
    const outcomes = exampleOutcomes();
    let fired = 0;
    const timer = setInterval(() => {
      fired += 1;
    }, 0);
    try {
      const writing = writeRunArtifactsAsync(runArtifacts(folder(), outcomes));
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
    writeRunArtifacts(runArtifacts(folder(), outcomes));
    const firedDuring = fired;
    clearInterval(interval);
    expect(firedDuring).toBe(0);
  });

  it('refuses to write over an earlier run folder', async () => {
    const dir = folder();
    await writeRunArtifactsAsync(runArtifacts(dir, exampleOutcomes()));
    await expect(writeRunArtifactsAsync(runArtifacts(dir, exampleOutcomes()))).rejects.toThrow(/already exists/);
    expect(existsSync(path.join(dir, 'index.json'))).toBe(true);
  });
});
