import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

const project = fixture('isolation');

describe('isolation in a real run', () => {
  it('a fixture path leading out of the project is a declaration error naming the trial and field', async () => {
    const run = await runVitest(project, ['trials/escape.test.ts']);
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toMatch(
      /trial "fixtures from outside the project" \(trials\/escape\.test\.ts(:\d+)?\): case\.fixtures: "\.\.\/\.\.\/\.\.\/\.\.\/etc" leads out of the project root/,
    );
  });

  it('an isolated command subject cannot write outside its workspace, and the Environment names the engine', async () => {
    const reportDir = tempDir('isolation');
    const run = await runVitest(project, [
      'trials/isolated.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.exitCode, run.output).toBe(0);
    const outcome = readLatestRun(reportDir).outcomes[0]!;
    expect(outcome.records.environment.isolation).toEqual({ engine: 'bubblewrap', network: 'none' });
    expect(outcome.attempts.map((a) => a.verdict)).toEqual(['PASS', 'PASS']);
    expect(existsSync(path.join(project, 'escaped-by-subject.txt'))).toBe(false);
  });
});
