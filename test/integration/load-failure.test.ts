import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/model/index.js';
import { fixture, repoRoot, runVitest, tempDir } from './support.js';

const project = fixture('load-failure');
const cli = path.join(repoRoot, 'dist', 'cli', 'main.js');

describe('a test file that throws at import after declaring a trial, beside a passing file', () => {
  it('leaves an incomplete run naming the file that failed to load: the latest pointer stays, riddle read exits 1', async () => {
    const reportDir = tempDir('load-failure');
    const run = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`]);
    expect(run.exitCode, run.output).not.toBe(0);
    const runs = readdirSync(path.join(reportDir, 'runs'));
    expect(runs).toHaveLength(1);
    const runDir = path.join(reportDir, 'runs', runs[0] as string);
    const indexFile = path.join(runDir, 'index.json');
    const index = migrate('run', JSON.parse(readFileSync(indexFile, 'utf8')), indexFile);
    // The file that loads gives its Outcome; the one that threw is missing, with why.
    expect(index.trials.map((row) => [row.name, row.testOutcome])).toEqual([
      ['a passing trial in a file that loads', 'pass'],
    ]);
    expect(index.incomplete).toBe(true);
    expect(index.missing).toEqual([
      expect.objectContaining({
        file: 'trials/throws-at-import.trial.test.ts',
        reason: expect.stringContaining('boom at import'),
      }),
    ]);
    // No latest pointer to a run that left a file unloaded; the terminal and summary.md say so.
    expect(existsSync(path.join(reportDir, 'index.json'))).toBe(false);
    expect(run.output).toMatch(/incomplete run: 1 trial declared but without an Outcome/);
    expect(readFileSync(path.join(runDir, 'summary.md'), 'utf8')).toContain('trials/throws-at-import.trial.test.ts');
    // `riddle read` of the report folder finds no complete run; of the run's folder, says why; both exit 1.
    const folder = await execa(process.execPath, [cli, 'read', reportDir], { reject: false });
    expect(folder.exitCode, folder.stdout + folder.stderr).toBe(1);
    expect(folder.stdout).toContain(`no complete run in ${reportDir}`);
    const own = await execa(process.execPath, [cli, 'read', runDir], { reject: false });
    expect(own.exitCode, own.stdout + own.stderr).toBe(1);
    expect(own.stdout).toContain('incomplete run: 1 declared trial(s) without an Outcome');
    expect(own.stdout).toContain('boom at import');
  });
});
