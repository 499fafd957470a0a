import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

const project = fixture('registrations');
const registrations = () =>
  JSON.parse(readFileSync(path.join(project, '.riddle', 'registrations.json'), 'utf8')) as {
    trials: Record<string, { policy: string; outcome: string; declared: { n: number } }>;
  };

async function run(name: string, env: Record<string, string>) {
  const reportDir = tempDir(`registrations-${name}`);
  const result = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`], env);
  return { ...result, outcome: readLatestRun(reportDir).outcomes[0]! };
}

describe('declared before seen: the registrations file', () => {
  it('registers the policy at the first run, fails a run whose policy changed after results, and accepts it on purpose', async () => {
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
    const first = await run('first', { FIXTURE_N: '14' });
    expect(first.exitCode).toBe(0);
    expect(first.outcome.registration).toMatchObject({ status: 'registered', earlierOutcome: null });
    const [entry] = Object.values(registrations().trials);
    expect(entry).toMatchObject({ outcome: first.outcome.id, declared: { n: 14 } });

    const again = await run('again', { FIXTURE_N: '14' });
    expect(again.exitCode).toBe(0);
    expect(again.outcome.registration?.status).toBe('unchanged');

    const changed = await run('changed', { FIXTURE_N: '20' });
    expect(changed.exitCode).not.toBe(0);
    expect(changed.outcome.judgment.verdict).toBe('PASS');
    expect(changed.outcome.registration).toMatchObject({
      status: 'changed',
      earlierOutcome: first.outcome.id,
      changes: [{ field: 'n', registered: 14, declared: 20 }],
    });
    // What changed is named, not only two fingerprints.
    expect(changed.outcome.warnings[0]).toContain(`policy changed after results were seen (n 14 → 20)`);
    expect(changed.outcome.warnings[0]).toContain(first.outcome.id);
    expect(changed.output).toContain('policy changed after results were seen (n 14 → 20)');
    expect(changed.output).toContain('RIDDLE_ACCEPT_POLICY=1');
    expect(Object.values(registrations().trials)[0]?.declared.n).toBe(14);

    const accepted = await run('accepted', { FIXTURE_N: '20', RIDDLE_ACCEPT_POLICY: '1' });
    expect(accepted.exitCode).toBe(0);
    expect(accepted.outcome.registration).toMatchObject({ status: 'accepted', earlierOutcome: first.outcome.id });
    expect(Object.values(registrations().trials)[0]).toMatchObject({
      outcome: accepted.outcome.id,
      declared: { n: 20 },
    });

    const after = await run('after', { FIXTURE_N: '20' });
    expect(after.exitCode).toBe(0);
    expect(after.outcome.registration?.status).toBe('unchanged');
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
  }, 600_000);

  it('are the project root’s when Vitest is started elsewhere with --root, under the same trial ids', async () => {
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
    const elsewhere = tempDir('registrations-cwd');
    const reportDir = tempDir('registrations-root');
    const result = await runVitest(
      elsewhere,
      ['--root', project, '--reporter=riddle', `--outputFile.riddle=${reportDir}`],
      { FIXTURE_N: '14' },
    );
    expect(result.exitCode, result.output).toBe(0);
    // Nothing in the folder Vitest was started from; the registration and the trial's file named from the root.
    expect(existsSync(path.join(elsewhere, '.riddle'))).toBe(false);
    const [outcome] = readLatestRun(reportDir).outcomes;
    expect(outcome?.trial.file).toMatch(/^trials\//);
    expect(Object.keys(registrations().trials)).toEqual([outcome?.trial.id]);
    const fromRoot = await run('from-root', { FIXTURE_N: '14' });
    expect(fromRoot.outcome.trial.id).toBe(outcome?.trial.id);
    expect(fromRoot.outcome.registration?.status).toBe('unchanged');
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
  }, 600_000);
});
