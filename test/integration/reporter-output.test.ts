import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

const project = fixture('ci');
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe('the riddle reporter’s terminal output', () => {
  it('beside the default reporter adds only its own part: Vitest’s header, file lines and totals appear once', async () => {
    const run = await runVitest(project, [
      '--reporter=default',
      '--reporter=riddle',
      `--outputFile.riddle=${tempDir('ci-both')}`,
    ]);
    expect(count(run.output, / RUN {2}v4/)).toBe(1);
    expect(count(run.output, /Test Files {2}/)).toBe(1);
    expect(count(run.output, /Tests {2}1 failed \| 2 passed/)).toBe(1);
    expect(count(run.output, / riddle {2}2 trials/)).toBe(1);
    expect(run.exitCode).toBe(1);
  });

  it('alone keeps Vitest’s output, prints running trials’ progress, and explains a failure with sample reasons', async () => {
    // The careful model's attempts after the second wait for this file, made once a progress line is seen: the trial
    // is mid-run when the main process looks, however slow the machine (timed pauses once missed it on busy cores).
    const release = path.join(tempDir('ci-hold'), 'release');
    const run = await runVitest(
      project,
      ['--reporter=riddle', `--outputFile.riddle=${tempDir('ci-alone')}`],
      { RIDDLE_PROGRESS_MS: '100', RIDDLE_FIXTURE_HOLD: release },
      (line) => {
        if (line.startsWith('riddle ▸ ')) writeFileSync(release, '');
      },
    );
    expect(count(run.output, / RUN {2}v4/)).toBe(1);
    expect(count(run.output, /Test Files {2}/)).toBe(1);
    const progress = run.output.split('\n').filter((line) => line.startsWith('riddle ▸ '));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatch(/^riddle ▸ trial "careful model declines": [12]\/14 attempts · \d+ PASS · fixed n=14$/);
    expect(run.output).toMatch(
      /why attempts did not pass \(samples\):\n\s+case#0 FAIL: expected declines unmet — .*to match \/won't\/.*\(and 5 more alike\)/,
    );
  });

  it('names --bail as what cut a run short, not an anonymous cancellation', async () => {
    const reportDir = tempDir('ci-bail');
    const run = await runVitest(project, ['--bail=1', '--reporter=riddle', `--outputFile.riddle=${reportDir}`]);
    expect(run.exitCode).toBe(1);
    expect(run.output).toContain('incomplete run: interrupted by --bail=1 (1 test failed)');
    const runs = path.join(reportDir, 'runs');
    const [only] = readdirSync(runs);
    const { index } = readLatestRun(path.join(runs, only ?? ''));
    expect(index).toMatchObject({ incomplete: true, interruptedBy: '--bail=1 (1 test failed)' });
  });
});
