import { mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { AttemptRecord, Clock, Outcome } from '../../../src/model/index.js';
import { resolveTrial, runTrial, type TrialDeclaration, type TrialPlan } from '../../../src/run/index.js';
import { commandSubject } from '../../../src/observe/index.js';
import type { AttemptSink } from '../../../src/run/held-attempts.js';
import { anEnvironment } from '../builders.js';

const rubric = { criteria: { answers: { description: 'answers', needs: 'text' as const } } };

async function run(
  declaration: TrialDeclaration,
  options: {
    clock?: Clock;
    attempts?: AttemptSink;
    signal?: AbortSignal;
    budget?: TrialPlan['budget'];
    root?: string;
  } = {},
): Promise<Outcome> {
  const resolved = resolveTrial({ name: 'hand-off', file: 'hand-off.test.ts', path: [] }, declaration);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {}, budget: options.budget ?? null },
    {
      clock: options.clock ?? { now: () => Date.now() },
      expect: vitestExpect,
      ...(options.attempts ? { attempts: options.attempts } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.root ? { root: options.root } : {}),
    },
  );
}

/** A trial whose subject notes each call and whose check notes how many calls had started when it judged. */
function noting(repeat: TrialDeclaration['repeat']) {
  let calls = 0;
  const callsSeenByChecks: number[] = [];
  const declaration: TrialDeclaration = {
    subject: async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return 'yes';
    },
    rubric,
    checks: {
      answers: (observation) => {
        callsSeenByChecks.push(calls);
        vitestExpect(String(observation.reply)).toMatch(/^yes/);
      },
    },
    case: { input: 'a', expect: ['answers'] },
    ...(repeat ? { repeat } : {}),
  };
  return { declaration, callsSeenByChecks };
}

describe('lanes that hand their attempts off to judging', () => {
  it('start their next attempt before the one they finished is judged (a fixed number of attempts, concurrency > 1)', async () => {
    const { declaration, callsSeenByChecks } = noting({ n: 20, stop: 'fixed', concurrency: 2 });
    const outcome = await run(declaration);
    expect(outcome.attempts.map((a) => [a.status, a.verdict])).toEqual(Array(20).fill(['completed', 'PASS']));
    // Judged one by one, two lanes could have started i + 2 calls by the i-th judgment at most; handed off, a lane
    // has started its next before its last is judged. (Not every judgment: the loop gives the event loop a turn
    // every few milliseconds, when judgments waiting run before the lanes go on.)
    expect(callsSeenByChecks.filter((calls, i) => calls > i + 2).length).toBeGreaterThan(0);
  });

  it('run one thing at a time at concurrency 1: each attempt is judged before the next starts', async () => {
    const { declaration, callsSeenByChecks } = noting({ n: 5, stop: 'fixed' });
    await run(declaration);
    expect(callsSeenByChecks).toEqual([1, 2, 3, 4, 5]);
  });

  it('wait for each judgment under a stopping rule, which reads the verdicts before the next attempt starts', async () => {
    const { declaration, callsSeenByChecks } = noting({ n: 8, concurrency: 2 });
    await run(declaration);
    // Two lanes, each judging its attempt before starting another: a check sees at most both lanes' calls.
    callsSeenByChecks.forEach((calls, i) => expect(calls).toBeLessThanOrEqual(i + 2));
  });

  it('wait for each judgment under a spending limit, which the next attempt must not pass', async () => {
    const { declaration, callsSeenByChecks } = noting({ n: 6, stop: 'fixed', concurrency: 2 });
    await run(declaration, { budget: { usd: 100, tokens: null, wallMs: null } });
    callsSeenByChecks.forEach((calls, i) => expect(calls).toBeLessThanOrEqual(i + 2));
  });

  it('have at most two judgments a lane pending, however slow the judging', async () => {
    let subjectsRunning = 0;
    let judgmentsRunning = 0;
    let most = { subjects: 0, judgments: 0, both: 0 };
    const note = () => {
      most = {
        subjects: Math.max(most.subjects, subjectsRunning),
        judgments: Math.max(most.judgments, judgmentsRunning),
        both: Math.max(most.both, subjectsRunning + judgmentsRunning),
      };
    };
    const outcome = await run({
      subject: async () => {
        subjectsRunning += 1;
        note();
        await new Promise((resolve) => setTimeout(resolve, 1));
        subjectsRunning -= 1;
        return 'yes';
      },
      rubric,
      checks: {
        // A judge slower than the subject (a model asked about each reply).
        answers: async () => {
          judgmentsRunning += 1;
          note();
          await new Promise((resolve) => setTimeout(resolve, 10));
          judgmentsRunning -= 1;
        },
      },
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 24, stop: 'fixed', concurrency: 3 },
    });
    expect(outcome.attempts.map((a) => a.status)).toEqual(Array(24).fill('completed'));
    expect(most.subjects).toBe(3);
    expect(most.judgments).toBe(6);
    // A lane whose judgment finds no room waits before its next attempt: never more than both kinds at their limit.
    expect(most.both).toBeLessThanOrEqual(9);
  });

  it('leave out of an attempt’s duration the time it waited for its judging’s turn', async () => {
    // The clock moves only while a check runs, 1,000 a check: an attempt's duration is its own check's.
    let now = 0;
    const declaration = (concurrency: number): TrialDeclaration => ({
      subject: async () => 'yes',
      rubric,
      checks: {
        answers: (observation) => {
          now += 1000;
          vitestExpect(String(observation.reply)).toMatch(/^yes/);
        },
      },
      case: { input: 'a', expect: ['answers'] },
      repeat: { n: 6, stop: 'fixed', concurrency },
    });
    const handedOff = await run(declaration(2), { clock: { now: () => now } });
    expect(handedOff.attempts.map((a) => a.durationMs)).toEqual(Array(6).fill(1000));
    const oneAtATime = await run(declaration(1), { clock: { now: () => now } });
    expect(oneAtATime.attempts.map((a) => a.durationMs)).toEqual(Array(6).fill(1000));
  });

  it('fail the trial with the error of an attempt that could not be kept, and leave no rejection unhandled', async () => {
    const kept: AttemptRecord[] = [];
    const sink: AttemptSink = {
      add(record) {
        if (kept.length === 3) throw new Error('the attempts file could not be written');
        kept.push(record);
        return record;
      },
      finish: () => null,
    };
    const { declaration } = noting({ n: 12, stop: 'fixed', concurrency: 3 });
    await expect(run(declaration, { attempts: sink })).rejects.toThrow('the attempts file could not be written');
    expect(kept).toHaveLength(3);
  });

  it('drop the attempts the run’s interruption caught before they were counted, and run no more', async () => {
    const controller = new AbortController();
    let calls = 0;
    const outcome = await run(
      {
        subject: async () => {
          calls += 1;
          if (calls === 7) controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 1));
          return 'yes';
        },
        rubric,
        checks: { answers: (observation) => vitestExpect(String(observation.reply)).toMatch(/^yes/) },
        case: { input: 'a', expect: ['answers'] },
        repeat: { n: 40, stop: 'fixed', concurrency: 3 },
      },
      { signal: controller.signal },
    );
    expect(outcome.execution.incomplete).not.toBeNull();
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(calls).toBe(7);
    expect(outcome.attempts.length).toBeLessThan(7);
    // Every declared attempt is either kept or counted as not run.
    expect(outcome.attempts.length + (outcome.arms[0]?.notRun.count ?? 0)).toBe(40);
  });

  it('close an attempt’s window on writes outside the workspace when its subject returns, not when it is judged', async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'riddle-handoff-project-')));
    // Each attempt writes a file into the project named after its workspace (`riddle-case-<index>-…`).
    const writer = `const w = process.env.RIDDLE_WORKSPACE; const at = /riddle-(case-\\d+)-/.exec(w)[1];
      require('node:fs').writeFileSync(require('node:path').join(${JSON.stringify(root)}, 'w-' + at + '.txt'), 'x');
      process.stdout.write('yes');`;
    const outcome = await run(
      {
        subject: commandSubject({ name: 'writer', command: process.execPath, args: ['-e', writer] }),
        rubric,
        checks: {
          // Attempt 0 is judged slowly, while both lanes run the rest.
          answers: async (observation, context) => {
            if (context.attempt === 0) await new Promise((resolve) => setTimeout(resolve, 1500));
            vitestExpect(String(observation.reply)).toBe('yes');
          },
        },
        case: { input: 'a', expect: ['answers'] },
        repeat: { n: 6, stop: 'fixed', concurrency: 2 },
      },
      { root },
    );
    expect(outcome.attempts.map((a) => a.status)).toEqual(Array(6).fill('completed'));
    const tiedTo = new Map((outcome.execution.outsideWrites?.changes ?? []).map((c) => [c.path, c.attempts]));
    expect(tiedTo.get('w-case-0.txt')).toContain('case#0');
    // The last attempt starts once four have returned: attempt 0's subject had long returned, though not judged.
    expect(tiedTo.get('w-case-5.txt')).toContain('case#5');
    expect(tiedTo.get('w-case-5.txt')).not.toContain('case#0');
  });
});
