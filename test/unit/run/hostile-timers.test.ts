import { afterEach, describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import { systemClock } from '../../../src/model/index.js';
import { resolveTrial, runTrial, type TrialDeclaration } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

// A subject runs in riddle's own process: it can replace the timer functions every other piece of code reads from
// globalThis. riddle's budgets, grace periods and waits must not depend on what a subject leaves there.
const original = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setImmediate: globalThis.setImmediate,
  setInterval: globalThis.setInterval,
  performance: globalThis.performance,
};
const dateNow = Date.now;
afterEach(() => {
  Object.assign(globalThis, original);
  Date.now = dateNow;
});

const rubric = { criteria: { answers: { description: 'answers', needs: 'text' as const } } };
const checks = {
  answers: (observation: { reply: unknown }) => {
    vitestExpect(String(observation.reply)).toMatch(/^yes/);
  },
};

async function run(declaration: TrialDeclaration): Promise<Outcome> {
  const resolved = resolveTrial({ name: 'hostile timers', file: 'unit.test.ts', path: [] }, declaration);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: systemClock, expect: vitestExpect },
  );
}

describe('a subject that replaces the global timers', () => {
  it('is still held to its budget: later attempts that never settle end over budget, the trial ends', async () => {
    let calls = 0;
    const outcome = await run({
      subject: () => {
        calls += 1;
        if (calls === 1) {
          // Timers that never fire, and a clock that stands still.
          const never = (() => 0) as unknown as typeof setTimeout;
          Object.assign(globalThis, {
            setTimeout: never,
            clearTimeout: () => {},
            setImmediate: never,
            setInterval: never,
            performance: { now: () => 0 },
          });
          Date.now = () => 0;
          return 'yes';
        }
        return new Promise<string>(() => {});
      },
      rubric,
      checks,
      case: { input: 'a', expect: ['answers'] },
      budget: { attemptMs: 50 },
      repeat: { n: 3, stop: 'fixed' },
    });
    expect(outcome.attempts.map((a) => a.status)).toEqual(['completed', 'subject_error', 'subject_error']);
    expect(outcome.judgment.incomplete).toBe(false);
    // The clock riddle records by kept running: the trial ended after it started, not at the epoch.
    expect(Date.parse(outcome.execution.finishedAt)).toBeGreaterThanOrEqual(Date.parse(outcome.execution.startedAt));
    expect(Date.parse(outcome.execution.finishedAt)).toBeGreaterThan(Date.parse('2020-01-01'));
  }, 30_000);
});
