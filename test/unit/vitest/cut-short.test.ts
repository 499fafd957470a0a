import { setTimeout as sleep } from 'node:timers/promises';
import type { TestContext } from 'vitest';
import { describe, expect, it } from 'vitest';
import { deliverCutShort, guardTrial } from '../../../src/vitest/cut-short.js';
import '../../../src/vitest/meta.js';

/** A test's context as guardTrial reads it: its signal (aborted when Vitest ends the test) and its task's meta. */
function aContext(name: string) {
  const controller = new AbortController();
  const task = { name, meta: {} } as TestContext['task'];
  const context = { signal: controller.signal, task, skip: () => undefined } as unknown as TestContext;
  return { context, endTest: () => controller.abort(new Error('Test timed out')) };
}

describe('Outcomes of trials cut short, delivered by their suite', () => {
  it('one hook a suite delivers every trial of it whose test ended while its body ran, in declaration order', async () => {
    const keys = ['file::first', 'file::finished', 'file::second'];
    const contexts = keys.map(aContext);
    // Each body builds its Outcome, then ends: the first and the last after Vitest has ended their tests.
    const bodies = keys.map((key, i) =>
      guardTrial(key, async (context) => {
        await sleep(i === 1 ? 0 : 20);
        context.task.meta.riddle = { trial: key, outcome: `outcome of ${key}` };
      }),
    );
    const running = bodies.map((body, i) => body((contexts[i] as ReturnType<typeof aContext>).context));
    await running[1];
    contexts[0]?.endTest();
    contexts[2]?.endTest();
    const suite = { meta: {} as TestContext['task']['meta'] };
    await deliverCutShort(keys)({}, suite);
    expect(suite.meta.riddleCutShort).toEqual(['outcome of file::first', 'outcome of file::second']);
    await Promise.all(running);
  });

  it('delivers nothing, and leaves the meta alone, when every trial of the suite ended with its test', async () => {
    const { context } = aContext('done');
    await guardTrial('file::done', async (own) => {
      own.task.meta.riddle = { trial: 'done', outcome: 'outcome' };
    })(context);
    const suite = { meta: {} as TestContext['task']['meta'] };
    await deliverCutShort(['file::done', 'file::never-ran'])({}, suite);
    expect(suite.meta.riddleCutShort).toBeUndefined();
  });
});
