import { describe, expect, it } from 'vitest';
import { fixture, outcomeNamed, readLatestRun, runVitest, tempDir } from './support.js';

const project = fixture('interruption');

describe('a trial whose budget is past the longest timer Node keeps', () => {
  it('runs instead of timing out at once, and curtailment ends it early', async () => {
    const reportDir = tempDir('large-trial');
    const run = await runVitest(project, [
      'trials/large.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.output).not.toMatch(/timed out/i);
    expect(run.output).not.toMatch(/TimeoutOverflowWarning/);
    expect(run.exitCode, run.output).toBe(0);
    const outcome = outcomeNamed(readLatestRun(reportDir).outcomes, 'a hundred thousand declared attempts');
    expect(outcome.judgment.verdict).toBe('PASS');
    expect(outcome.attempts.length).toBeLessThan(100);
  });
});
