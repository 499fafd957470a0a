import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, repoRoot, runVitest, tempDir } from './support.js';

const project = fixture('run-facts');

/**
 * A `git` first on the PATH that notes each call (its arguments) in a log and runs the real one: how often a run
 * asks git for the project's state.
 */
async function loggingGit(): Promise<{ env: Record<string, string>; calls: () => string[] }> {
  const realGit = (await execa('which', ['git'])).stdout.trim();
  const bin = tempDir('git-bin');
  const log = path.join(bin, 'calls.log');
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\nexec "${realGit}" "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  return {
    env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  };
}

describe("a project's git state, lockfile and machine", () => {
  it('are captured once for the run by the riddle reporter, and every test file records them', async () => {
    const git = await loggingGit();
    const report = tempDir('run-facts-report');
    const run = await runVitest(project, [], { ...git.env, RIDDLE_FIXTURE_REPORT: report });
    expect(run.exitCode, run.output).toBe(0);
    // Once for the run, not once per test file (three here).
    expect(git.calls().filter((call) => call.startsWith('rev-parse'))).toHaveLength(1);
    expect(git.calls().filter((call) => call === 'status --porcelain')).toHaveLength(1);
    const { outcomes } = readLatestRun(report);
    expect(outcomes.map((outcome) => outcome.trial.name).sort()).toEqual(['answers 1', 'answers 2', 'answers 3']);
    const commit = (await execa('git', ['rev-parse', 'HEAD'], { cwd: project })).stdout.trim();
    const vitestVersion = (
      JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', 'vitest', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    for (const outcome of outcomes) {
      expect(outcome.records.environment.project.gitCommit).toBe(commit);
      expect(outcome.records.environment.project.lockfileSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(outcome.records.environment.runtime.node).toBe(process.version);
      // Read once by the reporter as well, and adopted: the Vitest the project resolves.
      expect(outcome.records.environment.harness.vitest).toBe(vitestVersion);
    }
  });

  it("are captured by each test file's worker when no riddle reporter runs", async () => {
    const git = await loggingGit();
    const run = await runVitest(project, [], { ...git.env, RIDDLE_FIXTURE_NO_REPORTER: '1' });
    expect(run.exitCode, run.output).toBe(0);
    expect(git.calls().filter((call) => call.startsWith('rev-parse'))).toHaveLength(3);
  });
});
