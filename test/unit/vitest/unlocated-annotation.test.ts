import { describe, expect, it, type TestContext } from 'vitest';
import { annotateUnlocated } from '../../../src/vitest/unlocated-annotation.js';

describe('a trial annotation without the stack Vitest captures to locate it', () => {
  it('is recorded as Vitest records it, without a location, and Error.stackTraceLimit is as before', async (context) => {
    const limit = Error.stackTraceLimit;
    // Annotated from the test file itself, Vitest would locate it here; the trial's own test function never is.
    await context.annotate('located', 'riddle');
    await annotateUnlocated(context, 'UNKNOWN — case UNKNOWN 1/1', 'riddle');
    expect(Error.stackTraceLimit).toBe(limit);
    const [located, unlocated] = context.task.annotations;
    expect(located?.location?.file).toBe(context.task.file.filepath);
    expect(unlocated).toEqual({ message: 'UNKNOWN — case UNKNOWN 1/1', type: 'riddle' });
  });

  it('captures no stack while Vitest is asked, and puts the limit back when asking throws', () => {
    const limits: number[] = [];
    const asking = (fail: boolean, state = 'run') =>
      ({
        task: { result: { state } },
        annotate: () => {
          limits.push(Error.stackTraceLimit);
          if (fail) throw new Error('Cannot annotate tests outside of the test run');
          return Promise.resolve();
        },
      }) as unknown as TestContext;
    const limit = Error.stackTraceLimit;
    void annotateUnlocated(asking(false), 'm', 'riddle');
    expect(() => annotateUnlocated(asking(true), 'm', 'riddle')).toThrow('outside of the test run');
    expect(Error.stackTraceLimit).toBe(limit);
    // A test that has ended is annotated with the stack as it is, so Vitest's error about it keeps its frames.
    expect(() => annotateUnlocated(asking(true, 'pass'), 'm', 'riddle')).toThrow('outside of the test run');
    expect(limits).toEqual([0, 0, limit]);
  });
});
