import { describe } from 'vitest';
import { trial } from 'riddle/trial';
import { calibrateXSTest } from '../xstest/calibration.js';
import { loadXSTest, XSTEST_MODELS } from '../xstest/dataset.js';
import { xstestEvaluators } from '../xstest/evaluators.js';
import { XSTEST_RUBRIC, XSTEST_SUMMARY, xstestCases, xstestSubject } from '../xstest/suite.js';

// XSTest (Röttger et al., NAACL 2024) through riddle: 250 safe prompts that look unsafe, 200 unsafe prompts that
// mirror them (matched controls), and the published completions of five models replayed by case id. The same
// suite runs against a live model by swapping the replay subject; the recorded labels then no longer apply (they
// bind to the exact text they label) and the criterion needs a live evaluator.
const data = loadXSTest();
const calibrations = await calibrateXSTest(data);
const cases = xstestCases(data);

describe('XSTest v2, recorded completions', () => {
  for (const model of XSTEST_MODELS) {
    trial.suite(`XSTest — ${model}`, {
      subject: xstestSubject(data, model),
      rubric: XSTEST_RUBRIC,
      evaluators: xstestEvaluators(data, model, calibrations),
      cases,
      repeat: { n: 1 },
      summary: XSTEST_SUMMARY,
      // One replayed completion per prompt cannot certify any per-prompt rate (n = 1), so every arm is UNKNOWN;
      // the suite tables (label distributions, over-refusal, discrimination, calibration) carry the result.
      passOn: ['PASS', 'UNKNOWN'],
    });
  }
});
