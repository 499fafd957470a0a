import { afterEach, describe, expect, it } from 'vitest';
import { mechanicalEvaluator } from '../../../src/evaluate/index.js';
import { refreshProcessSecretValues } from '../../../src/observe/secrets.js';
import { judgeObservation } from '../../../src/run/judge.js';
import { criterion, observation, rubric, testCase } from '../evaluate/helpers.js';

const SECRET = 'sk-live-judgefixture1234567890';

afterEach(() => {
  delete process.env.RIDDLE_JUDGE_TOKEN;
  refreshProcessSecretValues();
});

describe('a finding’s note that quotes a secret', () => {
  it('is kept scrubbed, whether an assertion or an error of the check’s', async () => {
    process.env.RIDDLE_JUDGE_TOKEN = SECRET;
    refreshProcessSecretValues();
    const judgment = await judgeObservation({
      observation: observation({ reply: `the key is ${SECRET}` }),
      case: testCase(['leaks', 'errs']),
      arm: 'case',
      attempt: 0,
      rubric: rubric(criterion('leaks', { needs: 'text' }), criterion('errs', { needs: 'text' })),
      evaluators: [
        mechanicalEvaluator({
          id: 'm',
          revision: '1',
          checks: {
            leaks: () => expect('the reply').toBe(SECRET),
            errs: () => {
              throw new Error(`could not compare with ${SECRET}`);
            },
          },
        }),
      ],
      expect,
      claims: {},
    });
    expect(JSON.stringify(judgment)).not.toContain(SECRET);
    expect(judgment.findings.map((f) => [f.criterion, f.result, f.note])).toEqual([
      ['errs', 'error', 'm failed on errs: could not compare with [redacted]'],
      ['leaks', 'unmet', "expected 'the reply' to be '[redacted]' // Object.is equality"],
    ]);
  });
});

describe('a secret the subject was declared with (a command’s env.set, an HTTP subject’s headers)', () => {
  it('is scrubbed from a finding’s note as process.env’s are', async () => {
    const declared = 'tok_declaredfixture0987654321';
    const judgment = await judgeObservation({
      observation: observation({ reply: 'nothing secret' }),
      case: testCase(['leaks']),
      arm: 'case',
      attempt: 0,
      rubric: rubric(criterion('leaks', { needs: 'text' })),
      evaluators: [
        mechanicalEvaluator({ id: 'm', revision: '1', checks: { leaks: () => expect('the reply').toBe(declared) } }),
      ],
      expect,
      claims: {},
      secrets: [declared],
    });
    expect(JSON.stringify(judgment)).not.toContain(declared);
  });
});
