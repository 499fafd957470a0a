import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

describe('curtailment and the PARTIAL arm rule', () => {
  it('runs on until the required-criteria share is settled: 14 attempts that miss only an optional criterion are PARTIAL', async () => {
    const resolved = resolveTrial(
      { name: 'partial trial', file: 'a.test.ts', path: [] },
      {
        subject: () => 'yes',
        rubric: {
          criteria: {
            answers: { description: 'answers', needs: 'text' },
            thanks: { description: 'says thank you', needs: 'text', required: false },
          },
        },
        checks: {
          answers: (o) => void vitestExpect(String(o.reply)).toBe('yes'),
          thanks: (o) => void vitestExpect(String(o.reply)).toMatch(/thank/),
        },
        case: { input: 'q', expect: ['answers', 'thanks'] },
        repeat: { n: 14 },
      },
    );
    const outcome = await runTrial(
      { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
      { clock: { now: () => 0 }, expect: vitestExpect },
    );
    const [arm] = outcome.arms;
    expect(arm).toMatchObject({ verdict: 'PARTIAL', run: 14, verdicts: { PARTIAL: 14 } });
    expect(arm?.required).toMatchObject({ successes: 14, attempts: 14 });
    expect(outcome.judgment.verdict).toBe('PARTIAL');
  });
});
