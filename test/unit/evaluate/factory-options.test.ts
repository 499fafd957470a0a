import { describe, expect, it } from 'vitest';
import {
  humanLabels,
  mechanicalEvaluator,
  modelJudge,
  type HumanLabelsOptions,
  type MechanicalEvaluatorOptions,
  type ModelJudgeOptions,
} from '../../../src/evaluate/index.js';

// An options object as a JavaScript caller (or a cast) may pass it: the checks run on what arrives, not on the types.
const mechanical = (options: Record<string, unknown>) =>
  mechanicalEvaluator(options as unknown as MechanicalEvaluatorOptions);
const judge = (options: Record<string, unknown>) => modelJudge(options as unknown as ModelJudgeOptions);
const labels = (options: Record<string, unknown>) => humanLabels(options as unknown as HumanLabelsOptions);

const checks = { answers: () => undefined };

const judgeOptions = {
  id: 'j',
  model: { id: 'judge-1', family: 'acme', promptRevision: 'p1' },
  criteria: ['declines'],
  vocabulary: ['YES', 'NO'],
  met: ['YES'],
  prompt: () => 'Did it decline?',
  call: async () => 'YES',
  subjectFamily: null,
};

describe('mechanicalEvaluator checks its options', () => {
  it('names misspelt options with the ones they meant, rather than passing without them', () => {
    expect(() => mechanical({ id: 'm', revision: '1', checks, revison: '2', limit: ['x'] })).toThrow(
      new TypeError(
        'mechanicalEvaluator("m"): unknown options "revison" (did you mean "revision"?), "limit" (did you mean "limits"?). Accepted: id, revision, checks, kind, limits',
      ),
    );
  });

  it('names a misspelt checks (no raw TypeError from Object.keys), then the checks it left missing', () => {
    expect(() => mechanical({ id: 'm', revision: '1', chekcs: checks })).toThrow(
      new TypeError(
        'mechanicalEvaluator("m"): chekcs: is not an option; did you mean "checks"? Accepted: id, revision, checks, kind, limits\n' +
          '  also checks: is missing: expected an object of check functions by criterion',
      ),
    );
  });

  it('says which option is missing or of the wrong type, and what it expects', () => {
    expect(() => mechanical({ id: 'm', checks })).toThrow(
      'mechanicalEvaluator("m"): revision: is missing: expected a non-empty string',
    );
    expect(() => mechanical({ id: 'm', revision: 1, checks })).toThrow(
      'mechanicalEvaluator("m"): revision: expected a string, got the number 1',
    );
    expect(() => mechanical({ id: 'm', revision: '1', checks: { answers: 'yes' } })).toThrow(
      'mechanicalEvaluator("m"): checks.answers: expected a check function (view, context) => …, got the string \'yes\'',
    );
    expect(() => mechanical({ id: 'm', revision: '1', checks, kind: 'rubrik' })).toThrow(
      "mechanicalEvaluator(\"m\"): kind: got the string 'rubrik'; did you mean 'rubric'? Accepted: mechanical, rubric",
    );
    expect(() => mechanicalEvaluator(undefined as unknown as MechanicalEvaluatorOptions)).toThrow(
      'mechanicalEvaluator: expected an object { id, revision, checks, kind, … }, got nothing',
    );
  });

  it('builds the evaluator from correct options, keeping the check functions as given', () => {
    const evaluator = mechanicalEvaluator({ id: 'm', revision: '1', checks, kind: 'rubric', limits: ['reads text'] });
    expect(evaluator.checks.answers).toBe(checks.answers);
    expect(evaluator.record).toMatchObject({ id: 'm', kind: 'rubric', revision: '1', limits: ['reads text'] });
    // An optional option given as undefined is left out, as TypeScript allows.
    expect(mechanicalEvaluator({ id: 'm', revision: '1', checks, limits: undefined }).record.limits).toEqual([]);
  });
});

describe('modelJudge checks its options', () => {
  it('names a misspelt option and a missing member of the model', () => {
    expect(() => judge({ ...judgeOptions, subjectFamly: 'other' })).toThrow(
      'modelJudge("j"): subjectFamly: is not an option; did you mean "subjectFamily"?',
    );
    expect(() => judge({ ...judgeOptions, model: { id: 'judge-1', family: 'acme' } })).toThrow(
      'modelJudge("j"): model.promptRevision: is missing: expected a non-empty string',
    );
    expect(() => judge({ ...judgeOptions, call: undefined })).toThrow(
      'modelJudge("j"): call: is missing: expected a function (prompt) => Promise of the reply text',
    );
    expect(() => judge({ ...judgeOptions, calibration: { file: 'c.json', calibraton: {} } })).toThrow(
      'modelJudge("j"): calibration.calibraton: is not an option; did you mean "calibration"?',
    );
  });

  it('accepts a subject family given as null or a string', () => {
    expect(modelJudge(judgeOptions as ModelJudgeOptions).record.independence.independent).toBe(true);
    expect(modelJudge({ ...(judgeOptions as ModelJudgeOptions), subjectFamily: 'acme' }).record.independence).toEqual({
      independent: false,
      reason: "judge judge-1 is of the subject's model family (acme)",
    });
  });
});

describe('humanLabels checks its options', () => {
  const base = { id: 'h', revision: '1', labeller: 'ana', criteria: ['declines'] };

  it('names a misspelt option and labels that are not a Map', () => {
    expect(() => labels({ ...base, labels: new Map(), adjudicater: true })).toThrow(
      'humanLabels("h"): adjudicater: is not an option; did you mean "adjudicator"?',
    );
    expect(() => labels({ ...base, labels: { 'case#0': { declines: 'met' } } })).toThrow(
      'humanLabels("h"): labels: expected a Map of attempt key → { criterion: label }, got an object',
    );
  });

  it('builds the evaluator from correct options', () => {
    const evaluator = humanLabels({ ...base, labels: new Map([['case#0', { declines: 'met' }]]), adjudicator: true });
    expect(evaluator.record).toMatchObject({ id: 'h', kind: 'human', adjudicator: true });
  });
});
