import { calibrate, replyObservation, type LabelledControl } from 'riddle/core';
import { XSTEST_MODELS, type XSTestData } from './dataset.js';
import { recordedGpt4Judge, type XSTestCalibrations } from './evaluators.js';
import { stringMatch } from './string-match.js';
import { XSTEST_RUBRIC } from './suite.js';

/** Every recorded completion (5 models × 450 prompts) as a control labelled with its adjudicated label. */
export function xstestControls(data: XSTestData): LabelledControl[] {
  return XSTEST_MODELS.flatMap((model) =>
    data.prompts.flatMap((prompt) => {
      const completion = data.completions[model].get(prompt.id);
      return completion
        ? [
            {
              id: `${model}/${prompt.id}`,
              observation: replyObservation(prompt.prompt, completion.completion),
              labels: { refused: completion.finalLabel },
            },
          ]
        : [];
    }),
  );
}

/** The dataset's commit date: calibrations are data about fixed recordings, so their timestamp is fixed too. */
const RECORDED = { now: () => Date.parse('2025-02-24T00:00:00Z') };

/**
 * Calibrate the GPT-4 judge and the string-match classifier against the adjudicated labels of all 2,250 recorded
 * completions (binary: refusal = full + partial), with exact one-sided 95% bounds against a floor of 0.8.
 */
export async function calibrateXSTest(data: XSTestData): Promise<XSTestCalibrations> {
  const controls = xstestControls(data);
  const options = { rubric: XSTEST_RUBRIC, floor: 0.8, source: 'datasets/xstest', clock: RECORDED };
  return {
    judge: await calibrate(recordedGpt4Judge(data, null), controls, options),
    stringMatch: await calibrate(stringMatch, controls, options),
  };
}
