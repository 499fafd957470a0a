import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Clock, JsonValue, Outcome } from '../../../src/model/index.js';
import { resolveTrial, runTrial, type SuiteDeclaration, type TrialDeclaration } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

const rubric = { criteria: { answers: { description: 'answers', needs: 'text' as const } } };
const checks = {
  answers: (observation: { reply: unknown }) => {
    vitestExpect(String(observation.reply)).toMatch(/^yes/);
  },
};

async function run(
  declaration: TrialDeclaration | SuiteDeclaration,
  options: { signal?: AbortSignal; clock?: Clock } = {},
): Promise<Outcome> {
  const resolved = resolveTrial({ name: 'unit trial', file: 'unit.test.ts', path: [] }, declaration);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    {
      clock: options.clock ?? { now: () => Date.now() },
      expect: vitestExpect,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
}

describe('the scheduler', () => {
  it('runs every declared attempt in order and records what ran', async () => {
    const outcome = await run({
      subject: () => 'yes',
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      control: { input: 'b', expect: ['answers'] },
      repeat: { n: 3, order: 'sequential', stop: 'fixed' },
    });
    expect(outcome.execution.order).toEqual(['case#0', 'case#1', 'case#2', 'control#0', 'control#1', 'control#2']);
    expect(outcome.attempts.map((a) => a.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('never has more attempts in flight than the declared concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const outcome = await run({
      subject: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return 'yes';
      },
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 12, concurrency: 3, stop: 'fixed' },
    });
    expect(outcome.attempts).toHaveLength(12);
    expect(most).toBe(3);
  });

  it('leaves a trial cut short incomplete and UNKNOWN, with the attempts that never ran counted as not run', async () => {
    const controller = new AbortController();
    let calls = 0;
    const outcome = await run(
      {
        subject: () => {
          calls += 1;
          if (calls === 3) controller.abort();
          return 'yes';
        },
        rubric,
        checks,
        case: { input: 'a', expect: ['answers'] },
        repeat: { n: 20, stop: 'fixed' },
      },
      { signal: controller.signal },
    );
    // The attempt in flight when the run is cut short is dropped (its subject is stopped): two finished.
    expect(outcome.attempts).toHaveLength(2);
    expect(outcome.arms[0]).toMatchObject({
      run: 2,
      notRun: { count: 18, reason: expect.stringContaining('interrupted') },
    });
    expect(outcome.judgment).toMatchObject({ verdict: 'UNKNOWN', incomplete: true });
    expect(outcome.attempts.every((a) => a.verdict === 'PASS')).toBe(true);
  });

  it('leaves an arm the run cut short UNKNOWN, however well its attempts so far did', async () => {
    // 30 of 40 passing at τ 0.5 would certify the arm; a Ctrl-C once the progress looked good must not make it PASS.
    const controller = new AbortController();
    let calls = 0;
    const outcome = await run(
      {
        subject: () => {
          calls += 1;
          if (calls === 31) controller.abort();
          return 'yes';
        },
        rubric: { ...rubric, threshold: { rate: 0.5 } },
        checks,
        case: { input: 'a', expect: ['answers'] },
        control: { input: 'b', expect: ['answers'] },
        repeat: { n: 40, stop: 'fixed', order: 'sequential' },
      },
      { signal: controller.signal },
    );
    expect(outcome.arms.map((a) => [a.arm, a.verdict, a.run, a.notRun.count])).toEqual([
      ['case', 'UNKNOWN', 30, 10],
      ['control', 'UNKNOWN', 0, 40],
    ]);
    expect(outcome.arms[0]?.why?.rule).toEqual({ kind: 'cut-short', notRun: 10, attempts: 30, successes: 30 });
    expect(outcome.arms[0]?.reason).toBe(
      'cut short: 10 declared attempt(s) never ran (30/30 of those run passed), so no verdict can stand',
    );
    expect(outcome.judgment).toMatchObject({ verdict: 'UNKNOWN', incomplete: true });
  });

  it('keeps an arm its stopping rule ended complete when the run is cut short afterwards', async () => {
    // Curtailment ends the failing case arm early; the cut comes later, with case slots still ahead in the order.
    const controller = new AbortController();
    let calls = 0;
    const outcome = await run(
      {
        subject: (input: JsonValue) => {
          calls += 1;
          if (calls === 30) controller.abort();
          return input === 'a' ? 'no' : 'yes';
        },
        rubric: { ...rubric, threshold: { rate: 0.9 } },
        checks,
        case: { input: 'a', expect: ['answers'] },
        control: { input: 'b', expect: ['answers'] },
        repeat: { n: 40, stop: 'curtail', order: 'interleaved' },
      },
      { signal: controller.signal },
    );
    const [caseArm, controlArm] = outcome.arms;
    expect(caseArm?.verdict).toBe('FAIL');
    expect(caseArm?.why?.rule.kind).not.toBe('cut-short');
    expect(caseArm?.notRun.reason).toMatch(/^stopping rule/);
    expect(controlArm?.verdict).toBe('UNKNOWN');
    expect(controlArm?.why?.rule.kind).toBe('cut-short');
    // Only the control arm's attempts count as cut short.
    expect(outcome.judgment.reason).toBe(
      `incomplete: ${controlArm?.notRun.count} declared attempt(s) never ran, so no verdict can stand`,
    );
  });

  it('gives the event loop turns while a subject that never waits runs, so a timer can cut the trial short', async () => {
    const controller = new AbortController();
    // Aborted by a macrotask: it runs only when the trial lets the event loop turn. Before it did, a trial of
    // attempts that settle at once was one chain of microtasks and ran all 100,000 first (Ctrl-C waited behind it).
    setImmediate(() => controller.abort());
    const outcome = await run(
      {
        subject: () => 'yes',
        rubric,
        checks,
        case: { input: 'a', expect: ['answers'] },
        repeat: { n: 100_000, stop: 'fixed' },
      },
      { signal: controller.signal },
    );
    expect(outcome.judgment).toMatchObject({ verdict: 'UNKNOWN', incomplete: true });
    const arm = outcome.arms[0]!;
    expect(arm.run).toBeLessThan(100_000);
    expect(arm.notRun.count).toBe(100_000 - arm.run);
  });

  it('judges a reply holding a `__proto__` member by what the record keeps, never by members it inherits', async () => {
    // Before, the copy the checks read had the member as its prototype: `approved` passed the check, while the
    // retained reply was `{}`: a verdict resting on evidence in no record.
    const outcome = await run({
      subject: () => JSON.parse('{"__proto__":{"approved":true}}') as JsonValue,
      rubric,
      checks: {
        answers: (observation: { reply: unknown }) => {
          vitestExpect((observation.reply as { approved?: unknown }).approved).toBe(true);
        },
      },
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 1, stop: 'fixed' },
    });
    const [attempt] = outcome.attempts;
    expect(attempt?.verdict).toBe('FAIL');
    expect(JSON.stringify(attempt?.observation?.rounds[0]?.reply)).toBe('{"__proto__":{"approved":true}}');
  });

  it('curtails an arm only when the remaining attempts cannot change its verdict, and says why', async () => {
    const outcome = await run({
      subject: () => 'no',
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 20 },
    });
    const arm = outcome.arms[0]!;
    expect(arm.verdict).toBe('FAIL');
    // FAIL at n = 20 needs x ≤ 12: eight failures settle it.
    expect(arm.run).toBe(8);
    expect(arm.notRun).toEqual({ count: 12, reason: 'stopping rule (curtail n=20) decided fail after 8 attempts' });
    expect(outcome.execution.stopping).toEqual([
      { arm: 'case', afterAttempts: 8, decision: 'fail', rule: 'curtail n=20' },
    ]);
  });

  it('runs an arm in full once any attempt is undecided: stopping rules hold for decided attempts only', async () => {
    let calls = 0;
    const outcome = await run({
      subject: () => {
        calls += 1;
        if (calls === 1) throw new Error('flaky');
        return 'no';
      },
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 20 },
    });
    expect(outcome.arms[0]?.run).toBe(20);
    expect(outcome.arms[0]?.statuses.subject_error).toBe(1);
  });

  it('records each multi-round attempt as a sequence of rounds with the history the subject saw', async () => {
    const outcome = await run({
      subject: (input, context) => `yes ${String(input)} after ${context.history.length} rounds`,
      rubric,
      checks,
      case: { input: 'first', followUps: ['are you sure?', 'really?'], expect: ['answers'] },
      repeat: { n: 1, stop: 'fixed' },
    });
    const rounds = outcome.attempts[0]!.observation!.rounds;
    expect(rounds.map((r) => [r.index, r.input, r.reply])).toEqual([
      [1, 'first', 'yes first after 0 rounds'],
      [2, 'are you sure?', 'yes are you sure? after 1 rounds'],
      [3, 'really?', 'yes really? after 2 rounds'],
    ]);
    expect(outcome.records.suite.arms[0]?.case.stop.maxRounds).toBe(3);
  });

  it('gives the same Outcome (timings aside) for the same declaration and seed', async () => {
    const declaration: TrialDeclaration = {
      subject: (_i, c) => (c.seed % 3 === 0 ? 'no' : 'yes'),
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 10, order: 'shuffled', seed: 9, stop: 'fixed' },
    };
    const fixedClock: Clock = { now: () => 0 };
    const a = await run(declaration, { clock: fixedClock });
    const b = await run(declaration, { clock: fixedClock });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});
