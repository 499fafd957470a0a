import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

const COST = 0.01;
const LIMIT = 0.15;

/**
 * Two test files, each a trial of ten $0.01 attempts, run at once in two workers under one run budget of $0.15:
 * alone neither trial would reach it, together they must stop at it.
 */
describe.each(['forks', 'threads'])('a run budget shared by parallel workers (%s)', (pool) => {
  it('blocks the remaining attempts of every trial once the whole run has spent it, and says so', async () => {
    const reportDir = tempDir(`run-budget-${pool}`);
    const run = await runVitest(fixture('run-budget'), [`--pool=${pool}`], { RIDDLE_FIXTURE_REPORT: reportDir });
    expect(run.exitCode, run.output).toBe(0);
    const { index, outcomes } = readLatestRun(reportDir);
    expect(outcomes.map((o) => o.trial.file).sort()).toEqual(['trials/first.test.ts', 'trials/second.test.ts']);

    const attempts = outcomes.flatMap((o) => o.attempts);
    const ran = attempts.filter((a) => a.status === 'completed');
    const blocked = attempts.filter((a) => a.status === 'blocked');
    // Checked before each attempt starts: the run stops once $0.15 is spent, give or take the one attempt the other
    // worker had already started.
    expect(ran.length).toBeGreaterThanOrEqual(15);
    expect(ran.length).toBeLessThanOrEqual(16);
    expect(ran.length + blocked.length).toBe(20);

    const budget = index.runBudget;
    expect(budget?.declared).toEqual({ usd: LIMIT, tokens: null, wallMs: null });
    expect(budget?.spent.usd).toBeCloseTo(ran.length * COST, 9);
    expect(budget?.spent.tokens).toBe(ran.length * 120);
    expect(budget?.blockedAttempts).toBe(blocked.length);
    expect(budget?.exhausted).toMatch(/^run cost budget spent: \$0\.1[56] of \$0\.15 across the run's trials$/);
    // The same reason in every blocked attempt of both trials, and in their stopping records.
    for (const attempt of blocked) {
      expect(attempt.error).toEqual({ where: 'run budget', message: budget?.exhausted });
      expect(attempt.verdict).toBe('UNKNOWN');
    }
    for (const outcome of outcomes) {
      const refused = outcome.attempts.filter((a) => a.status === 'blocked').length;
      const stops = outcome.execution.stopping.filter((s) => s.decision === 'run budget');
      expect(stops.map((s) => s.rule)).toEqual(refused > 0 ? [budget?.exhausted] : []);
      // Decided on what ran: the arm counts its completed attempts as PASS and never imputes the blocked ones.
      expect(outcome.arms[0]?.verdicts.PASS).toBe(10 - refused);
    }
    expect(run.output).toContain('riddle run budget SPENT: run cost budget spent:');
    expect(run.output).toMatch(new RegExp(`${blocked.length} attempts? blocked, verdicts on what ran`));
  }, 900_000);
});
