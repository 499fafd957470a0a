/// <reference lib="dom" />
// The page.evaluate callback below runs in Chromium, where the DOM exists.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVALUATOR_SCHEMA, type Outcome } from '../../src/model/index.js';
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
    expect(tau.attempts.filter((a) => a.verdict === 'CONTRADICTED').map((a) => `${a.arm}#${a.index}`)).toEqual([
      'task-3#0',
      'task-5#0',
    ]);
    expect(run.output).toContain('Cases by successes out of n attempts');
    expect(run.output).toContain('pass^4 ≥ 0.5  FAIL');
    expect(run.output).toContain('claimed done, but no update_reservation_baggages was requested by round 10');
  });

  it('takes the trial verdict from the declared pass^4 rule, not from 50 tasks one by one', () => {
    // Four attempts certify no task at τ 0.8, so the rows are FAIL, CONTRADICTED or UNKNOWN; the rule decides.
    expect(tau.suiteRule).toMatchObject({
      conditions: [{ rate: 'pass^4', atLeast: 0.5 }],
      checks: [{ rate: 'pass^4', value: 0.2, cases: 50, decision: 'FAIL' }],
      verdict: 'FAIL',
    });
    expect(tau.suiteRule?.checks[0]?.interval?.upper.toFixed(3)).toBe('0.343');
    expect(tau.judgment).toMatchObject({ verdict: 'FAIL', testOutcome: 'pass' });
    expect(tau.judgment.reason).toMatch(
      /^suite rule FAIL \(0 PASS, 1 FAIL, 0 UNKNOWN of 1 check\): pass\^4 ≥ 0\.5: 0\.200/,
    );
    const kinds = tau.findings.map((f) => `${f.owner} ${f.kind}`);
    expect(kinds).toContain('subject suite-rule');
    expect(kinds).toContain('subject contradicted-claim');
    expect(kinds).not.toContain('harness too-few-attempts');
    expect(kinds).not.toContain('subject arm-verdict');
    expect(run.output).toMatch(/suite rule FAIL — 0 PASS, 1 FAIL, 0 UNKNOWN of 1 check/);
    expect(run.output).not.toMatch(/arms UNKNOWN for too few attempts/);
    // Nor is the trial warned that 4 attempts cannot certify a task: the rule, not the tasks, decides it.
    expect(run.output).not.toMatch(/cannot certify PASS/);
    expect(tau.warnings).toEqual([]);
  });

  it("calibrates riddle's write matcher against the recorded reward, listing every disagreement", () => {
    // Both Evaluator records come from riddle's constructors, at the current record version.
    expect(tau.records.evaluators.map((e) => [e.schema, e.id, e.kind, e.adjudicator])).toEqual([
      [EVALUATOR_SCHEMA, 'tau-bench-reward', 'mechanical', true],
      [EVALUATOR_SCHEMA, 'riddle-write-match', 'mechanical', false],
    ]);
    const matcher = tau.suite?.evaluators.find((e) => e.evaluator === 'riddle-write-match');
    expect(matcher?.neither).toMatchObject({ tp: 83, fn: 1, tn: 112, fp: 4 });
    // Exact (Clopper–Pearson) 95% intervals: 83 of 84 runs the reward counts solved, 112 of 116 unsolved.
    const { sensitivity, specificity } = matcher?.statistics ?? {};
    expect([sensitivity?.value, sensitivity?.lower, sensitivity?.upper].map((x) => x?.toFixed(3))).toEqual([
      '0.988',
      '0.935',
      '1.000',
    ]);
    expect([specificity?.value, specificity?.lower, specificity?.upper].map((x) => x?.toFixed(3))).toEqual([
      '0.966',
      '0.914',
      '0.991',
    ]);
    expect(matcher?.statistics.cohenKappa).toBeCloseTo(0.949, 3);
    expect(run.output).toMatch(
      /riddle-write-match\s+tau-bench-gpt-4o-tool-calling\s+98\.8% \[93\.5, 100\.0\]\s+96\.6% \[91\.4, 99\.1\]/,
    );
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

  it('shows pass^1…4 with intervals, the spread by successes, the verdict, the claims and the calibration in the HTML report, in Chromium', async () => {
    const [runId] = readdirSync(path.join(reportDir, 'runs'));
    const file = path.join(reportDir, 'runs', runId ?? '', 'index.html');
    const context = await chromium.launchPersistentContext(tempDir('chromium-profile'), {
      executablePath: process.env.RIDDLE_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(pathToFileURL(file).href);
      // Every suite table by its title: the rows as the reader sees them.
      const tables = await page.locator('#suite-tables').evaluate((section) =>
        Object.fromEntries(
          Array.from(section.querySelectorAll('h3')).map((h3) => {
            const table = h3.nextElementSibling?.nextElementSibling?.querySelector('table');
            const rows = Array.from(table?.querySelectorAll('tbody tr') ?? []).map((tr) =>
              Array.from(tr.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? ''),
            );
            return [h3.textContent ?? '', rows];
          }),
        ),
      );
      const suite = 'tau-bench-airline · tau-bench-gpt-4o-tool-calling';
      const rowsOf = (title: string) => tables[Object.keys(tables).find((t) => t.startsWith(title)) ?? ''];
      expect(rowsOf('pass^k')).toEqual([
        [
          suite,
          'solved by tau-bench-reward',
          '50',
          '0.420 [0.314, 0.532]',
          '0.273 [0.167, 0.402]',
          '0.220 [0.116, 0.358]',
          '0.200 [0.097, 0.343]',
        ],
      ]);
      expect(rowsOf('Cases by successes')).toEqual([[suite, '14', '12', '10', '4', '10', '0']]);
      expect(rowsOf('Suite verdict under its declared rule')).toEqual([[suite, 'pass^4 ≥ 0.5', 'FAIL', '2', '2', '2']]);
      expect(rowsOf('Contradicted claims')?.map((row) => row.slice(1, 3))).toEqual([
        ['task-3', '0'],
        ['task-5', '0'],
      ]);
      expect(rowsOf('Disagreements with the reference')).toHaveLength(5);
      const calibration = rowsOf('Evaluator calibration')?.find((row) => row[0] === 'riddle-write-match');
      expect(calibration?.slice(2, 6)).toEqual(['98.8% [93.5, 100.0]', '96.6% [91.4, 99.1]', '0.97', '0.95']);
      const notes = await page.locator('#suite-tables').textContent();
      expect(notes).toContain('each an independent sample of the original subject');
      // The trial's own section: its verdict and the rule's check.
      const rule = page.locator('table.suite-rule tbody tr').first();
      expect(await rule.locator('td').allTextContents()).toEqual(
        expect.arrayContaining(['pass^4 ≥ 0.5', '0.200', 'FAIL']),
      );
      expect(await page.locator('#toc li').first().textContent()).toContain('FAIL');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
