import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

const project = fixture('holdout');

describe('holdout trials', () => {
  it('run only when asked for, and each run counts against the declared budget', async () => {
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
    const notAsked = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${tempDir('holdout-0')}`], {
      RIDDLE_SEAL_SALT: 'holdout-salt',
    });
    expect(notAsked.exitCode).toBe(0);
    expect(notAsked.output).toMatch(/1 skipped/);

    const accesses = [];
    for (const run of [1, 2, 3]) {
      const reportDir = tempDir(`holdout-${run}`);
      const asked = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`], {
        RIDDLE_HOLDOUT: '1',
        RIDDLE_SEAL_SALT: 'holdout-salt',
      });
      expect(asked.exitCode).toBe(0);
      accesses.push(readLatestRun(reportDir).outcomes[0]!);
    }
    expect(accesses.map((o) => o.judgment.verdict)).toEqual(['PASS', 'PASS', 'UNKNOWN']);
    expect(accesses.map((o) => o.execution.holdout ?? null)).toEqual([
      { access: 1, budget: 2 },
      { access: 2, budget: 2 },
      null,
    ]);
    expect(accesses[2]!.judgment).toMatchObject({
      testOutcome: 'skip',
      blocked: expect.stringContaining('all 2 accesses to this holdout are used'),
    });
    const ledger = JSON.parse(readFileSync(path.join(project, '.riddle', 'holdouts.json'), 'utf8')) as {
      accesses: Record<string, number>;
    };
    expect(Object.values(ledger.accesses)).toEqual([2]);
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
  });
});
