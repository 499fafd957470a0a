import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir, withoutTimings } from './support.js';

const project = fixture('verdicts');

describe('sharded runs merged with --merge-reports', () => {
  it('give the same verdicts and Outcomes as one run (timings and run ids aside)', async () => {
    const single = tempDir('single');
    const blobs = tempDir('blobs');
    const merged = tempDir('merged');
    await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${single}`]);
    for (const shard of ['1/2', '2/2']) {
      const run = await runVitest(project, [
        `--shard=${shard}`,
        '--reporter=blob',
        `--outputFile.blob=${path.join(blobs, `blob-${shard.replace('/', '-')}.json`)}`,
      ]);
      expect(run.output).not.toContain('riddle report');
    }
    const merge = await runVitest(project, [
      `--merge-reports=${blobs}`,
      '--reporter=riddle',
      `--outputFile.riddle=${merged}`,
    ]);
    expect(merge.output).toContain(' riddle ');

    const one = readLatestRun(single);
    const two = readLatestRun(merged);
    expect(two.index.trials.map((t) => [t.name, t.verdict, t.outcomeId])).toEqual(
      one.index.trials.map((t) => [t.name, t.verdict, t.outcomeId]),
    );
    expect(two.outcomes.length).toBe(8);
    for (const [i, outcome] of two.outcomes.entries()) {
      expect(withoutTimings(outcome)).toEqual(withoutTimings(one.outcomes[i]));
    }
  });
});
