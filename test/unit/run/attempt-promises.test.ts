import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

/** Promises made while a trial of `n` attempts of a subject and a check that both answer at once runs. */
async function promisesMadeBy(n: number): Promise<number> {
  const resolved = resolveTrial(
    { name: 'promises', file: 'promises.test.ts', path: [] },
    {
      subject: (input) => `yes ${String(input)}`,
      revision: 'promises@1',
      rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toMatch(/^yes/) },
      case: { input: 'a', expect: ['answers'] },
      repeat: { n, stop: 'fixed' },
    },
  );
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made += 1;
    },
  }).enable();
  try {
    await runTrial(
      { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
      { clock: { now: () => 0 }, expect: vitestExpect },
    );
  } finally {
    hook.disable();
  }
  return made;
}

describe('an attempt of a function subject', () => {
  it('makes few promises: every one is made, tracked by the async context and collected for every attempt', async () => {
    // The difference of two trial sizes: what the trial makes once cancels out. An attempt made 39 when every
    // `await` of a value, `Promise#finally` and a check's and subject's plain return made promises of their own; 23 now.
    const perAttempt = ((await promisesMadeBy(220)) - (await promisesMadeBy(20))) / 200;
    expect(perAttempt).toBeGreaterThan(5);
    expect(perAttempt).toBeLessThanOrEqual(28);
  });
});
