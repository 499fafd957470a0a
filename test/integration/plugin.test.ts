import { describe, expect, it } from 'vitest';
import { fixture, outcomeNamed, readLatestRun, runVitest, tempDir } from './support.js';

describe('the riddle plugin', () => {
  it('installs the reporter, sets project-wide passOn and output folder; timeouts follow the trial budget', async () => {
    const reportDir = tempDir('plugin');
    const run = await runVitest(fixture('plugin'), [], { RIDDLE_FIXTURE_REPORT: reportDir });
    expect(run.output).toContain(' riddle ');
    const { outcomes } = readLatestRun(reportDir);
    const project = outcomeNamed(outcomes, 'too few attempts passes under the project-wide passOn');
    expect(project.judgment).toMatchObject({ verdict: 'UNKNOWN', testOutcome: 'pass' });
    expect(project.records.suite.aggregation.passOn).toEqual(['PASS', 'UNKNOWN']);
    const own = outcomeNamed(outcomes, 'its own passOn wins over the project');
    expect(own.judgment).toMatchObject({ verdict: 'UNKNOWN', testOutcome: 'fail' });
    const slow = outcomeNamed(outcomes, 'slow subject within its declared budget');
    expect(slow.judgment.verdict).toBe('PASS');
    expect(slow.attempts.reduce((sum, a) => sum + a.durationMs, 0)).toBeGreaterThan(5000);
    expect(run.output).not.toMatch(/timed out in 5000ms/);
    expect(run.exitCode).toBe(1);
    expect(run.output).toMatch(/1 failed \| 2 passed/);
  });
});
