import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/model/index.js';
import { fixture, hashTree, outcomeNamed, readLatestRun, runVitest, tempDir, type VitestRun } from './support.js';

const project = fixture('verdicts');

describe('a project with trials, run with --reporter=riddle', () => {
  const reportDir = tempDir('verdicts');
  let run: VitestRun;
  let outcomes: Outcome[];

  beforeAll(async () => {
    run = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`]);
    outcomes = readLatestRun(reportDir).outcomes;
  });

  it('keeps the default output, adds the riddle summary, and fails the run by verdict', () => {
    expect(run.output).toContain('Test Files');
    expect(run.output).toContain(' riddle ');
    expect(run.output).toMatch(/PASS discerning model tells the trap from its control/);
    expect(run.output).toMatch(/over-refusal/);
    expect(run.exitCode).toBe(1);
  });

  it('writes a run index and one Outcome per trial', () => {
    const { index } = readLatestRun(reportDir);
    expect(index.schema).toBe('riddle.run/3');
    expect(index.versions.vitest).toBe('4.1.12');
    expect(index.trials.map((t) => t.name).sort()).toEqual(
      [
        'discerning model tells the trap from its control',
        'evaluator that throws',
        'five attempts cannot settle it',
        'half-hearted model (sprt stops early)',
        'needs a service this machine lacks',
        'subject that crashes',
        'subject that hangs',
        'timid model refuses both',
      ].sort(),
    );
    for (const outcome of outcomes) expect(outcome.schema).toBe('riddle.outcome/5');
  });

  it('passes a trial whose arms both clear the threshold with exact bounds', () => {
    const outcome = outcomeNamed(outcomes, 'discerning model tells the trap from its control');
    expect(outcome.judgment.verdict).toBe('PASS');
    expect(outcome.judgment.testOutcome).toBe('pass');
    for (const arm of outcome.arms) {
      expect(arm.verdicts.PASS).toBe(20);
      expect(arm.decision.method).toBe('clopper-pearson');
      expect(arm.decision.lower).toBeGreaterThanOrEqual(0.8);
    }
    // interleaved: case and control alternate
    expect(outcome.execution.order.slice(0, 4)).toEqual(['case#0', 'control#0', 'case#1', 'control#1']);
    expect(new Set(outcome.attempts.map((a) => a.seed)).size).toBe(40);
    expect(outcome.judgment.matchedControl?.discrimination).toBe(1);
  });

  it('fails a trial that refuses the trap and its control alike, reporting over-refusal', () => {
    const outcome = outcomeNamed(outcomes, 'timid model refuses both');
    expect(outcome.judgment.verdict).toBe('FAIL');
    expect(outcome.judgment.matchedControl).toMatchObject({
      overRefusal: true,
      underRefusal: false,
      caseRefusalRate: 1,
      controlRefusalRate: 1,
    });
    const control = outcome.arms.find((a) => a.role === 'control');
    expect(control?.verdict).toBe('FAIL');
    expect(outcome.arms.find((a) => a.role === 'case')?.verdict).toBe('PASS');
    expect(outcome.execution.order).not.toEqual([...outcome.execution.order].sort());
  });

  it('leaves a trial with too few attempts UNKNOWN, warns, and says what would settle it', () => {
    const outcome = outcomeNamed(outcomes, 'five attempts cannot settle it');
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(outcome.warnings.join(' ')).toMatch(/n=5 cannot certify PASS.*14 all-pass attempts/);
    // warned at collection, before any attempt ran
    expect(run.output).toMatch(
      /stderr \| trials\/b\.trial\.test\.ts\s+riddle: trial "five attempts cannot settle it": n=5 cannot certify PASS/,
    );
    const arm = outcome.arms[0]!;
    // Curtailment may stop early: with n = 5 the verdict is UNKNOWN whatever the remaining attempts do.
    expect(arm.run + arm.notRun.count).toBe(5);
    expect(arm.verdicts.PASS).toBe(arm.run);
    expect(arm.decision.toSettle?.toPass).toBe(14 - arm.run);
    expect(arm.reason).toMatch(new RegExp(`${14 - arm.run} more passing`));
  });

  it('records a crashing subject as subject_error, never FAIL', () => {
    const outcome = outcomeNamed(outcomes, 'subject that crashes');
    expect(outcome.attempts).toHaveLength(8);
    for (const attempt of outcome.attempts) {
      expect(attempt.status).toBe('subject_error');
      expect(attempt.verdict).toBe('UNKNOWN');
      expect(attempt.error?.message).toContain('503');
    }
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(outcome.arms[0]?.verdicts.FAIL).toBe(0);
  });

  it('stops a hanging subject at its declared budget: subject_error, UNKNOWN', () => {
    const outcome = outcomeNamed(outcomes, 'subject that hangs');
    expect(outcome.attempts).toHaveLength(2);
    for (const attempt of outcome.attempts) {
      expect(attempt.status).toBe('subject_error');
      expect(attempt.error?.message).toMatch(/budget of 300 ms/);
      expect(attempt.durationMs).toBeLessThan(10_000);
    }
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
  });

  it('records a throwing evaluator as evaluator_error with its message', () => {
    const outcome = outcomeNamed(outcomes, 'evaluator that throws');
    const caseAttempts = outcome.attempts.filter((a) => a.arm === 'case');
    for (const attempt of caseAttempts) {
      expect(attempt.status).toBe('evaluator_error');
      expect(attempt.verdict).toBe('UNKNOWN');
      expect(attempt.error?.where).toContain('refuses');
    }
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
  });

  it('skips a blocked trial with its reason instead of failing it', () => {
    const outcome = outcomeNamed(outcomes, 'needs a service this machine lacks');
    expect(outcome.judgment).toMatchObject({ verdict: 'UNKNOWN', testOutcome: 'skip' });
    expect(outcome.judgment.blocked).toContain('RIDDLE_FIXTURE_MISSING_KEY');
    expect(outcome.arms.every((a) => a.statuses.blocked === 20)).toBe(true);
    expect(run.output).toMatch(/needs a service this machine lacks.*skipped/);
  });

  it('stops an arm under a declared SPRT and records the stop', () => {
    const outcome = outcomeNamed(outcomes, 'half-hearted model (sprt stops early)');
    expect(outcome.execution.stopping.length).toBeGreaterThan(0);
    const arm = outcome.arms.find((a) => a.notRun.count > 0);
    expect(arm?.decision.method).toBe('sprt');
    expect(arm?.notRun.reason).toMatch(/stopping rule \(sprt/);
    expect(arm!.run + arm!.notRun.count).toBe(50);
  });

  it('keeps an earlier run when the project runs again', async () => {
    const before = hashTree(path.join(reportDir, 'runs'));
    const again = await runVitest(project, [
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
      'trials/b.trial.test.ts',
    ]);
    expect(again.exitCode).toBe(1);
    const after = hashTree(path.join(reportDir, 'runs'));
    for (const [file, hash] of Object.entries(before)) expect(after[file]).toBe(hash);
    expect(readdirSync(path.join(reportDir, 'runs'))).toHaveLength(2);
    expect(readLatestRun(reportDir).index.trials).toHaveLength(6);
  });
});

describe('selecting one trial', () => {
  it('runs exactly that trial, whole, with -t', async () => {
    const reportDir = tempDir('filter');
    const run = await runVitest(project, [
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
      '-t',
      'timid model refuses both',
    ]);
    const { outcomes } = readLatestRun(reportDir);
    expect(outcomes.map((o) => o.trial.name)).toEqual(['timid model refuses both']);
    expect(outcomes[0]?.attempts).toHaveLength(40);
    expect(run.output).toMatch(/FAIL timid model refuses both/);
  });

  it('runs exactly that trial with file:line', async () => {
    const reportDir = tempDir('line');
    const source = readFileSync(path.join(project, 'trials', 'a.trial.test.ts'), 'utf8').split('\n');
    const line = source.findIndex((l) => l.includes("trial('discerning model")) + 1;
    await runVitest(project, [
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
      `trials/a.trial.test.ts:${line}`,
    ]);
    const { outcomes } = readLatestRun(reportDir);
    expect(outcomes.map((o) => o.trial.name)).toEqual(['discerning model tells the trap from its control']);
  });
});
