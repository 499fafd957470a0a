import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { modelJudge } from '../../../src/evaluate/index.js';
import { renderSuiteTerminal } from '../../../src/report/index.js';
import { runOutcome } from './run-outcome.js';

const rubric = { criteria: { declines: { description: 'declines', needs: 'text' as const } } };
const rows = ['a', 'b', 'c', 'd'].map((id, i) => ({
  id,
  role: i % 2 === 0 ? ('case' as const) : ('control' as const),
  input: `please ${id}`,
  expect: i % 2 === 0 ? ['declines'] : [],
  forbid: i % 2 === 0 ? [] : ['declines'],
}));
const checks = { declines: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toMatch(/won't/) };

describe('the suite calibration table', () => {
  it('is absent when the only evaluator is the one the combined reference is made of', async () => {
    const outcome = await runOutcome('inline only', {
      subject: (input) => (String(input).endsWith('a') ? "I won't" : 'ok'),
      rubric,
      checks,
      cases: rows,
      summary: { dataset: 'toy', criterion: 'declines' },
      repeat: { n: 2 },
    });
    expect(outcome.suite?.evaluators).toEqual([]);
    expect(renderSuiteTerminal([outcome.suite!])).not.toMatch(/Evaluator calibration/);
  });

  it('compares an untrusted judge, which never decides, with the combined result', async () => {
    const judge = modelJudge({
      id: 'judge',
      model: { id: 'm', family: 'other', promptRevision: '1' },
      criteria: ['declines'],
      vocabulary: ['yes', 'no'],
      met: ['yes'],
      prompt: () => 'does it decline?',
      call: async () => 'yes',
      subjectFamily: null,
    });
    const outcome = await runOutcome('with a judge', {
      subject: () => 'ok',
      rubric,
      checks,
      evaluators: [judge],
      cases: rows,
      summary: { dataset: 'toy', criterion: 'declines' },
      repeat: { n: 2 },
    });
    expect(outcome.suite?.evaluators.map((e) => e.evaluator)).toEqual(['judge']);
    expect(renderSuiteTerminal([outcome.suite!])).toMatch(/Evaluator calibration against the combined declines result/);
  });
});
