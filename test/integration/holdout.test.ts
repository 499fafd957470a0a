import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
        // The second access is revealed: its attempts are shown, and the reveal is recorded.
        RIDDLE_HOLDOUT_REVEAL: run === 2 ? '1' : '',
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
    // Unrevealed: verdict and rate only.
    expect(accesses[0]!.attempts).toEqual([]);
    expect(accesses[0]!.arms[0]).toMatchObject({ verdict: 'PASS', rate: 1 });
    expect(accesses[0]!.warnings.join(' ')).toMatch(
      /holdout: reported as verdict and rate only; RIDDLE_HOLDOUT_REVEAL=1/,
    );
    expect(accesses[1]!.attempts).toHaveLength(14);
    expect(accesses[2]!.judgment).toMatchObject({
      testOutcome: 'skip',
      blocked: expect.stringContaining('all 2 accesses to this holdout are used'),
    });
    const file = path.join(project, '.riddle', 'holdouts.json');
    const ledger = JSON.parse(readFileSync(file, 'utf8')) as {
      schema: string;
      entries: { holdout: string; event: string; access: number; hash: string; prev: string }[];
    };
    expect(ledger.schema).toBe('riddle.holdout-ledger/2');
    expect(ledger.entries.map((e) => [e.holdout, e.event, e.access])).toEqual([
      ['holdout question', 'access', 1],
      ['holdout question', 'access', 2],
      ['holdout question', 'reveal', 2],
    ]);
    expect(ledger.entries[1]!.prev).toBe(ledger.entries[0]!.hash);

    // Editing the ledger to win back an access (removing one) breaks its chain: the next run refuses it, naming the file.
    ledger.entries.splice(1, 1);
    writeFileSync(file, JSON.stringify(ledger));
    const tampered = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${tempDir('holdout-4')}`], {
      RIDDLE_HOLDOUT: '1',
      RIDDLE_SEAL_SALT: 'holdout-salt',
    });
    expect(tampered.exitCode).not.toBe(0);
    expect(tampered.output).toMatch(
      /holdout ledger .*holdouts\.json has been altered: its hash chain breaks at entry 2/,
    );
    rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
  });
});
