import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { functionSubject } from '../../../src/observe/index.js';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

// A subject declared with secrets (a command's env.set, an HTTP subject's headers: observe/subject `secrets`) may
// quote them in an error raised outside the awaited call; that error is kept with its attempt and shown everywhere.
const DECLARED = 'tok_strayfixture1122334455667788';

describe('a stray error quoting a secret the subject was declared with', () => {
  it('is kept scrubbed of it', async () => {
    const subject = {
      ...functionSubject({
        name: 'leaky',
        revision: 'leaky@1',
        run: () => {
          setTimeout(() => {
            throw new Error(`background job failed with ${DECLARED}`);
          }, 0);
          return new Promise((resolve) => setTimeout(() => resolve('yes'), 20));
        },
      }),
      secrets: [DECLARED],
    };
    const resolved = resolveTrial(
      { name: 'declared secrets', file: 'unit.test.ts', path: [] },
      {
        subject,
        rubric: { criteria: { answers: { description: 'answers', needs: 'text' as const } } },
        checks: { answers: () => undefined },
        case: { input: 'a', expect: ['answers'] },
        repeat: { n: 1, stop: 'fixed' },
      },
    );
    const outcome = await runTrial(
      { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
      { clock: { now: () => Date.now() }, expect: vitestExpect },
    );
    const [attempt] = outcome.attempts;
    expect(attempt?.status).toBe('subject_error');
    expect(attempt?.error?.message).toContain('background job failed with [redacted]');
    expect(JSON.stringify(outcome)).not.toContain(DECLARED);
  });
});
