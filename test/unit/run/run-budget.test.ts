import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Budget, Clock, Outcome } from '../../../src/model/index.js';
import type { AttemptContext } from '../../../src/observe/index.js';
import {
  openRunLedger,
  readRunLedger,
  resolveTrial,
  runTrial,
  resolveRunBudget,
  RUN_BUDGET_VARIABLES,
  RunLedger,
  type RunBudgetShare,
} from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

function newShare(limits: Partial<Budget>, startedAt = 0): RunBudgetShare {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-run-ledger-'));
  const share = {
    limits: { usd: null, tokens: null, wallMs: null, ...limits },
    ledger: path.join(dir, 'run-budget.jsonl'),
    startedAt,
  };
  openRunLedger(share);
  return share;
}

const ledgerLines = (share: RunBudgetShare) =>
  readFileSync(share.ledger, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string; reason?: string });

describe('run budget ledger', () => {
  it('counts every spend of many updaters in one process, and says once why the run is spent', async () => {
    const share = newShare({ usd: 0.5 });
    const ledgers = Array.from({ length: 8 }, () => new RunLedger(share));
    const reasons = await Promise.all(
      ledgers.map(async (ledger, worker) => {
        const seen: (string | null)[] = [];
        for (let i = 0; i < 25; i += 1) {
          await ledger.spend(`trial ${worker}`, `case#${i}`, { usd: 0.01, tokens: 7 });
          seen.push(await ledger.spent(0));
        }
        return seen;
      }),
    );
    const record = readRunLedger(share.ledger, 1000);
    expect(record.spent.usd).toBeCloseTo(2, 9);
    expect(record.spent.tokens).toBe(8 * 25 * 7);
    expect(record.spent.wallMs).toBe(1000);
    // The first worker to find the budget spent writes the reason; every later check gives those same words.
    expect(ledgerLines(share).filter((l) => l.kind === 'spent')).toHaveLength(1);
    const given = new Set(reasons.flat().filter((r) => r !== null));
    expect([...given]).toEqual([record.exhausted]);
    expect(record.exhausted).toMatch(/^run cost budget spent: \$0\.5\d* of \$0\.5 across the run's trials$/);
    expect(reasons.every((seen) => seen.at(-1) === record.exhausted)).toBe(true);
  });

  it('counts every spend of several processes writing at once', async () => {
    const share = newShare({ tokens: 10_000 });
    const child = path.join(here, 'run-budget-child.mjs');
    const run = promisify(execFile);
    const children = await Promise.all(
      [0, 1, 2, 3].map((worker) =>
        run(process.execPath, [child, share.ledger, String(worker), '30'], { cwd: repoRoot, timeout: 600_000 }),
      ),
    );
    expect(children.map((c) => c.stdout.trim())).toEqual(['30', '30', '30', '30']);
    const record = readRunLedger(share.ledger, 0);
    expect(record.spent).toMatchObject({ usd: null, tokens: 4 * 30 * 3 });
    expect(ledgerLines(share).filter((l) => l.kind === 'spend')).toHaveLength(120);
    expect(record.exhausted).toBeNull();
  }, 600_000);

  it('spends a run by tokens and by wall time since the run started', async () => {
    const tokens = newShare({ tokens: 100 });
    const ledger = new RunLedger(tokens);
    await ledger.spend('t', 'case#0', { usd: null, tokens: 99 });
    expect(await ledger.spent(0)).toBeNull();
    await ledger.spend('t', 'case#1', { usd: null, tokens: 1 });
    expect(await ledger.spent(0)).toBe("run token budget spent: 100 of 100 tokens across the run's trials");
    const wall = newShare({ wallMs: 5000 }, 1_000_000);
    expect(await new RunLedger(wall).spent(1_004_999)).toBeNull();
    expect(await new RunLedger(wall).spent(1_005_000)).toBe(
      'run wall-time budget spent: 5000 ms of 5000 ms since the run started',
    );
  });

  it('refuses a ledger that is not one, naming the file', async () => {
    const share = newShare({ usd: 1 });
    writeFileSync(share.ledger, '{"kind":"spend","trial":"t"}\n', { flag: 'a' });
    await expect(new RunLedger(share).spent(0)).rejects.toThrow(
      `run budget ledger ${share.ledger} has a malformed line`,
    );
    writeFileSync(share.ledger, '{"kind":"block","trial":"t","attempt":"case#0"}\n');
    expect(() => readRunLedger(share.ledger, 0)).toThrow('does not start with its limits');
  });
});

const rubric = { criteria: { answers: { description: 'answers', needs: 'text' as const } } };
const checks = {
  answers: (observation: { reply: unknown }) => {
    vitestExpect(String(observation.reply)).toMatch(/^yes/);
  },
};

async function trialUnder(name: string, share: RunBudgetShare, clock: Clock): Promise<Outcome> {
  const resolved = resolveTrial(
    { name, file: 'run-budget.test.ts', path: [] },
    {
      subject: (_input: unknown, context: AttemptContext) => {
        context.recordReceipt({
          provider: 'test',
          id: `r${context.attempt}`,
          model: 'm',
          inputTokens: 100,
          outputTokens: 50,
          costUsd: 0.01,
          latencyMs: null,
        });
        return 'yes';
      },
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      control: { input: 'b', expect: ['answers'] },
      repeat: { n: 4, stop: 'fixed' },
    },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock, expect: vitestExpect, runBudget: new RunLedger(share) },
  );
}

describe('run budget in the scheduler', () => {
  it('blocks the remaining attempts of every trial once the run has spent its budget, decided on what ran', async () => {
    const share = newShare({ usd: 0.065 });
    const clock = { now: () => 0 };
    const first = await trialUnder('first trial', share, clock);
    // 0.08 of 0.065 would need 8 attempts: the seventh finds 0.06 spent and runs, the eighth is refused.
    expect(first.attempts.filter((a) => a.status === 'completed')).toHaveLength(7);
    const refused = first.attempts.filter((a) => a.status === 'blocked');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error).toEqual({
      where: 'run budget',
      message: "run cost budget spent: $0.07 of $0.065 across the run's trials",
    });
    expect(first.execution.budget).toBeNull();
    expect(first.execution.stopping).toContainEqual({
      arm: refused[0]?.arm,
      afterAttempts: 3,
      decision: 'run budget',
      rule: "run cost budget spent: $0.07 of $0.065 across the run's trials",
    });

    const second = await trialUnder('second trial', share, clock);
    expect(second.attempts.every((a) => a.status === 'blocked' && a.verdict === 'UNKNOWN')).toBe(true);
    expect(second.judgment.verdict).toBe('UNKNOWN');
    expect(second.execution.stopping.map((s) => [s.arm, s.afterAttempts, s.decision])).toEqual([
      ['case', 0, 'run budget'],
      ['control', 0, 'run budget'],
    ]);
    // Nothing is imputed: arms count only the attempts that ran.
    expect(second.arms.map((arm) => arm.verdicts.PASS ?? 0)).toEqual([0, 0]);
    expect(first.arms.map((arm) => arm.verdicts.PASS ?? 0).sort()).toEqual([3, 4]);

    const record = readRunLedger(share.ledger, 10);
    expect(record).toMatchObject({ exhausted: "run cost budget spent: $0.07 of $0.065 across the run's trials" });
    expect(record.blockedAttempts).toBe(9);
    expect(record.spent.usd).toBeCloseTo(0.07, 9);
    expect(record.spent.tokens).toBe(7 * 150);
  });
});

describe('declaring a run budget', () => {
  it('reads the plugin option, with each environment variable overriding its limit', () => {
    expect(resolveRunBudget(undefined, {})).toBeNull();
    expect(resolveRunBudget({}, { RIDDLE_RUN_BUDGET_USD: '' })).toBeNull();
    expect(resolveRunBudget({ usd: 2, wallMs: 60_000 }, {})).toEqual({ usd: 2, tokens: null, wallMs: 60_000 });
    expect(
      resolveRunBudget({ usd: 2 }, { [RUN_BUDGET_VARIABLES.usd]: '0.5', [RUN_BUDGET_VARIABLES.tokens]: ' 900 ' }),
    ).toEqual({ usd: 0.5, tokens: 900, wallMs: null });
  });

  it('names the option or variable that is wrong and what it takes', () => {
    expect(() => resolveRunBudget({ usd: 0 }, {})).toThrow(
      "riddle plugin: runBudget.usd = 0: the run's usd budget must be a positive number",
    );
    expect(() => resolveRunBudget({ tokens: 2.5 }, {})).toThrow('must be a positive whole number');
    expect(() => resolveRunBudget({ usd: Number.NaN }, {})).toThrow('runBudget.usd = NaN');
    expect(() => resolveRunBudget({ dollars: 1 } as never, {})).toThrow(
      'runBudget.dollars is not a limit; give usd, tokens or wallMs',
    );
    expect(() => resolveRunBudget(5 as never, {})).toThrow('runBudget must be an object');
    expect(() => resolveRunBudget({}, { RIDDLE_RUN_BUDGET_WALL_MS: '10m' })).toThrow(
      "RIDDLE_RUN_BUDGET_WALL_MS=10m: the run's wallMs budget must be a positive number",
    );
  });
});
