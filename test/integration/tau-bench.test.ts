import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/model/index.js';
import { outcomeNamed, readLatestRun, repoRoot, runVitest, tempDir, type VitestRun } from './support.js';

/** The example's τ-bench trial alone, in a real Vitest process with the riddle reporter. */
describe('example-project: τ-bench airline from its recorded trajectories', () => {
  const reportDir = tempDir('tau-bench');
  let run: VitestRun;
  let tau: Outcome;

  beforeAll(async () => {
    run = await runVitest(path.join(repoRoot, 'example-project'), [
      'trials/tau-bench.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    tau = outcomeNamed(readLatestRun(reportDir).outcomes, 'τ-bench airline — gpt-4o tool calling');
  });

  it('replays 50 tasks × 4 recorded trials as independent recorded samples', () => {
    expect(run.exitCode).toBe(0);
    expect(tau.arms).toHaveLength(50);
    expect(tau.attempts).toHaveLength(200);
    expect(tau.records.environment).toMatchObject({ subject: { kind: 'replay' }, independentAttempts: true });
    expect(tau.records.environment.notes.join(' ')).toContain('independent samples of the original subject');
    // One round per recorded user turn, every tool call a receipt with its declared effect class.
    const first = tau.attempts.find((a) => a.arm === 'task-0' && a.index === 0)?.observation;
    expect(first?.rounds[0]?.input).toBe("Hi! I'm looking to book a flight from New York to Seattle on May 20th.");
    // Eight user turns; the last ("###STOP###") the agent never answered, so seven rounds end on the agent's reply.
    expect(first?.rounds.length).toBe(7);
    expect(first?.rounds.at(-1)?.reply).toMatch(
      /^Your flight from New York \(JFK\) to Seattle \(SEA\) has been successfully booked/,
    );
    // A write the tool refused is kept with its recorded failure, not as a success.
    expect(first?.toolRequests.find((r) => r.tool === 'book_reservation')).toMatchObject({
      effect: 'write',
      admitted: true,
      result: null,
      error: 'Error: payment amount does not add up, total price is 305, but paid 255',
    });
  });

  it('reproduces the leaderboard row exactly, with task-clustered intervals', () => {
    const repeated = tau.suite?.repeated;
    // "TC (gpt-4o)", airline, in the README of sierra-research/tau-bench.
    expect(repeated?.passHatK.map((r) => r.value?.toFixed(3))).toEqual(['0.420', '0.273', '0.220', '0.200']);
    expect(repeated?.passHatK.map((r) => [r.lower?.toFixed(3), r.upper?.toFixed(3)])).toEqual([
      ['0.314', '0.532'],
      ['0.167', '0.402'],
      ['0.116', '0.358'],
      ['0.097', '0.343'],
    ]);
    expect(run.output).toMatch(/0\.420 \[0\.314, 0\.532\]\s+0\.273 \[0\.167, 0\.402\]\s+0\.220 \[0\.116, 0\.358\]/);
  });

  it('adds the spread of tasks by successes, the declared verdict and the contradicted claims', () => {
    const repeated = tau.suite?.repeated;
    expect(repeated?.distribution.map((d) => d.cases)).toEqual([14, 12, 10, 4, 10]);
    expect(repeated).toMatchObject({
      independence: 'recorded-samples',
      incomplete: [],
      verdict: { verdict: 'FAIL', rule: { k: 4, atLeast: 0.5 } },
      contradicted: { attempts: 2, cases: 2, claims: 2 },
    });
    expect(repeated?.contradicted.list.map((c) => `${c.arm}#${c.attempt}`)).toEqual(['task-3#0', 'task-5#0']);
    expect(tau.judgment.verdict).toBe('CONTRADICTED');
    expect(run.output).toContain('Cases by successes out of n attempts');
    expect(run.output).toContain('pass^4 ≥ 0.5  FAIL');
    expect(run.output).toContain('claimed done, but no update_reservation_baggages was requested by round 10');
  });

  it("calibrates riddle's write matcher against the recorded reward, listing every disagreement", () => {
    const matcher = tau.suite?.evaluators.find((e) => e.evaluator === 'riddle-write-match');
    expect(matcher?.neither).toMatchObject({ tp: 83, fn: 1, tn: 112, fp: 4 });
    expect(matcher?.statistics.cohenKappa).toBeCloseTo(0.949, 3);
    expect(tau.suite?.repeated?.disagreements.map((d) => `${d.arm}#${d.attempt}:${d.reference}`)).toEqual([
      'task-2#1:unmet',
      'task-5#1:met',
      'task-44#1:unmet',
      'task-44#3:unmet',
      'task-46#3:unmet',
    ]);
    // Runs without reward_info keep their recorded reward (0) and say their basis is missing.
    const turnLimit = tau.attempts.find((a) => a.arm === 'task-2' && a.index === 1);
    expect(turnLimit?.findings.find((f) => f.evaluator === 'tau-bench-reward')?.note).toBe(
      'recorded reward 0: recorded without its basis, counted as recorded',
    );
  });
});
