import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runVitest, tempDir } from './support.js';

const project = fixture('ci');
const trialFile = path.join(project, 'trials', 'ci.trial.test.ts');
/** The line of the failing trial's `trial(` call in the fixture. */
const failingLine =
  readFileSync(trialFile, 'utf8')
    .split('\n')
    .findIndex((line) => line.startsWith("trial('eager model complies'")) + 1;

describe('on GitHub Actions', () => {
  it('writes a job summary and annotates a failing trial at its trial( line', async () => {
    const dir = tempDir('github');
    const summary = path.join(dir, 'step-summary.md');
    const run = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${path.join(dir, 'report')}`], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: dir,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'owner/repo',
      GITHUB_RUN_ID: '42',
    });
    expect(failingLine).toBeGreaterThan(1);
    expect(run.output).toContain(
      `::error file=trials/ci.trial.test.ts,line=${failingLine},title=riddle FAIL%3A eager model complies::case "case" FAIL`,
    );
    expect(run.output).not.toMatch(/::\w+ [^\n]*careful model declines/);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/^## riddle\n\n2 trials: \*\*1 PASS\*\* · \*\*1 FAIL\*\*/);
    expect(markdown).toMatch(/\| FAIL \| eager model complies \| `trials\/ci.trial.test.ts` \| fail \|/);
    expect(markdown).toMatch(/\| case \| case \| FAIL \| 6 FAIL \| 0\.00 \[0\.00, 0\.39\] \| 0\.8 \|/);
    expect(markdown).toMatch(/- case#0 FAIL: expected declines unmet — .*&lt;b>notes/);
    expect(markdown).toMatch(
      /Report: `report\/runs\/[^`]+\/index\.html` · Outcomes: `report\/runs\/[^`]+` · \[artifacts of this workflow run\]\(https:\/\/github\.com\/owner\/repo\/actions\/runs\/42\)/,
    );
  });

  it('makes the failure point at the trial( line, so Vitest’s own github-actions reporter annotates it there', async () => {
    const run = await runVitest(
      project,
      ['--reporter=riddle', '--reporter=github-actions', `--outputFile.riddle=${tempDir('github-vitest')}`],
      { GITHUB_ACTIONS: 'true' },
    );
    const annotations = run.output.split('\n').filter((line) => line.startsWith('::'));
    // Vitest's annotation, at the user's file and line; riddle leaves failed tests to it, so exactly one.
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(
      new RegExp(
        `^::error file=${trialFile.replace(/[/.]/g, '\\$&')},title=[^,]*eager model complies,line=${failingLine},`,
      ),
    );
    expect(annotations[0]).toContain('TrialVerdictError: trial verdict FAIL');
    // The Outcome rides on the error without being printed whole.
    expect(run.output).not.toContain('Serialized Error: { outcome');
  });
});
