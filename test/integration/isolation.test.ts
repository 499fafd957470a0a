import { existsSync, mkdirSync, rmSync } from 'node:fs';
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
    // Contained by the engine: nothing outside is watched.
    expect(outcome.execution.outsideWrites).toBeNull();
  });

  it('trials of one worker are each told only the writes made during their own attempts', async () => {
    const work = tempDir('between-trials');
    const written = ['written-by-first-trial.txt', 'written-between-trials.txt', 'written-by-third-trial.txt'];
    try {
      const run = await runVitest(project, [
        'trials/between-trials.test.ts',
        '--reporter=riddle',
        `--outputFile.riddle=${path.join(work, 'report')}`,
      ]);
      expect(run.exitCode, run.output).toBe(0);
      const outcomes = readLatestRun(path.join(work, 'report')).outcomes;
      const changesOf = (name: string) =>
        outcomes
          .find((outcome) => outcome.trial.name === name)
          ?.execution.outsideWrites?.changes.filter((change) => change.root === 'project');
      // A function subject is watched over its trial: a change is the trial's, tied to no one attempt.
      expect(changesOf('writes into the project')).toEqual([
        { root: 'project', path: 'written-by-first-trial.txt', change: 'created', attempts: [] },
      ]);
      expect(changesOf('writes nothing')).toEqual([]);
      expect(changesOf('writes again')).toEqual([
        { root: 'project', path: 'written-by-third-trial.txt', change: 'created', attempts: [] },
      ]);
    } finally {
      for (const file of written) rmSync(path.join(project, file), { force: true });
    }
  });

  it("an unisolated command subject's writes into the project and home folders are recorded, tied to its attempt, and shown", async () => {
    const work = tempDir('unisolated');
    const home = path.join(work, 'home');
    const tmp = path.join(work, 'tmp');
    mkdirSync(home);
    mkdirSync(tmp);
    const written = path.join(project, 'written-outside-by-subject.txt');
    try {
      const run = await runVitest(
        project,
        ['trials/unisolated.test.ts', '--reporter=riddle', `--outputFile.riddle=${path.join(work, 'report')}`],
        { HOME: home, TMPDIR: tmp },
      );
      expect(run.exitCode, run.output).toBe(0);
      expect(existsSync(written)).toBe(true);
      const outcome = readLatestRun(path.join(work, 'report')).outcomes[0]!;
      const outside = outcome.execution.outsideWrites;
      // A command is watched around each attempt; the temporary folder, shared by every process, never.
      expect(outside?.window).toBe('attempt');
      expect(outside?.roots.map((root) => [root.name, root.depth, root.truncated])).toEqual([
        ['project', null, false],
        ['home', 1, false],
      ]);
      // Only the subject's write in the project (Vitest's caches and riddle's own files are not watched).
      expect(outside?.changes.filter((change) => change.root === 'project')).toEqual([
        { root: 'project', path: 'written-outside-by-subject.txt', change: 'created', attempts: ['case#0'] },
      ]);
      expect(outside?.changes).toContainEqual({
        root: 'home',
        path: 'written-into-home.txt',
        change: 'created',
        attempts: ['case#0'],
      });
      // Its write inside the workspace is workspace evidence, as before.
      expect(outcome.attempts[0]?.observation?.files.map((f) => f.path)).toEqual(['inside.txt']);
      const finding = outcome.findings.find((f) => f.kind === 'outside-writes');
      expect(finding).toMatchObject({ owner: 'environment', attempts: [{ arm: 'case', index: 0 }] });
      expect(finding?.message).toMatch(/project written-outside-by-subject\.txt created during case#0/);
      expect(outcome.capabilities).toEqual([]);
      expect(run.output).toMatch(/environment[\s\S]*outside the workspace changed while the unisolated subject ran/);
    } finally {
      rmSync(written, { force: true });
    }
  });
});
