import { Levenshtein } from 'autoevals';
import { describe, expect, it } from 'vitest';
import {
  autoevalsScorer,
  changeClaimExtractor,
  recordedRewardEvaluator,
  type AutoevalsScorerOptions,
  type ChangeClaimExtractorOptions,
  type RecordedRewardOptions,
} from '../../../src/evaluate/index.js';

// An options object as a JavaScript caller (or a cast) may pass it: the checks run on what arrives, not on the types.
const reward = (options: Record<string, unknown>) =>
  recordedRewardEvaluator(options as unknown as RecordedRewardOptions);
const autoevals = (options: Record<string, unknown>) => autoevalsScorer(options as unknown as AutoevalsScorerOptions);
const claims = (options: Record<string, unknown>) =>
  changeClaimExtractor(options as unknown as ChangeClaimExtractorOptions);

describe('recordedRewardEvaluator checks its options', () => {
  const rewards = () => ({ reward: 1, basis: 'hash', calls: [] });
  const options = { id: 'tau', revision: '1', criterion: 'solved', rewards };

  it('names a misspelt withoutBasis, rather than counting a reward without basis as recorded', () => {
    expect(() => reward({ ...options, withoutbasis: 'unknown' })).toThrow(
      new TypeError(
        'recordedRewardEvaluator("tau"): withoutbasis: is not an option; did you mean "withoutBasis"? Accepted: id, revision, criterion, rewards, success, withoutBasis, adjudicator, limits\n' +
          '  also withoutBasis: is missing: expected one of as-recorded, unknown',
      ),
    );
  });

  it('says what a mistyped option should be', () => {
    expect(() => reward({ ...options, withoutBasis: 'as recorded' })).toThrow(
      "recordedRewardEvaluator(\"tau\"): withoutBasis: got the string 'as recorded'; did you mean 'as-recorded'? Accepted: as-recorded, unknown",
    );
    expect(() => reward({ ...options, rewards: new Map(), withoutBasis: 'unknown' })).toThrow(
      'recordedRewardEvaluator("tau"): rewards: expected a function (arm, attempt) => the recorded reward { reward, basis, calls }, or undefined, got an object',
    );
  });

  it('accepts correct options', () => {
    const evaluator = recordedRewardEvaluator({ ...options, withoutBasis: 'unknown', adjudicator: true });
    expect(evaluator.record).toMatchObject({ id: 'tau', criteria: ['solved'], adjudicator: true });
    expect(Object.keys(evaluator.checks)).toEqual(['solved']);
  });
});

describe('autoevalsScorer checks its options', () => {
  it('names misspelt criteria, rather than saying none were declared', () => {
    expect(() => autoevals({ scorer: Levenshtein, critera: ['answer'], revision: '1' })).toThrow(
      new TypeError(
        'autoevalsScorer: critera: is not an option; did you mean "criteria"? Accepted: scorer, criteria, id, revision, args, model, subjectFamily, calibration, deterministic, limits\n' +
          '  also criteria: is missing: expected an array of strings',
      ),
    );
  });

  it('says what a mistyped option should be, naming the scorer by its id', () => {
    expect(() => autoevals({ scorer: Levenshtein, id: 'lev', criteria: 'answer', revision: '1' })).toThrow(
      'autoevalsScorer("lev"): criteria: expected an array of strings, got the string \'answer\'',
    );
    expect(() =>
      autoevals({ scorer: Levenshtein, criteria: ['answer'], revision: '1', model: { id: 'm', family: 'f' } }),
    ).toThrow('autoevalsScorer: model.promptRevision: is missing: expected a non-empty string');
  });

  it('accepts correct options (an empty revision keeps its own message)', () => {
    const scorer = autoevalsScorer({
      scorer: Levenshtein,
      criteria: ['answer'],
      revision: 'autoevals@0.3.0',
      args: () => ({ output: 'x' }),
      limits: ['only the reply'],
    });
    expect(scorer.record).toMatchObject({ id: 'autoevals Levenshtein', kind: 'mechanical' });
    expect(() => autoevals({ scorer: Levenshtein, criteria: ['answer'], revision: '' })).toThrow('declare a revision');
  });
});

describe('changeClaimExtractor checks its options', () => {
  const patterns = [{ pattern: /has been cancelled/i, tools: ['cancel_reservation'] }];

  it('names misspelt identifiers, rather than ignoring the records a claim names', () => {
    expect(() => claims({ id: 'changes/1', patterns, identifers: /\b[A-Z]{3}\d{3}\b/g })).toThrow(
      new TypeError(
        'changeClaimExtractor("changes/1"): identifers: is not an option; did you mean "identifiers"? Accepted: id, patterns, identifiers',
      ),
    );
  });

  it('says what a mistyped pattern should be', () => {
    expect(() => claims({ id: 'changes/1', patterns: [{ pattern: 'has been cancelled', tools: ['x'] }] })).toThrow(
      'changeClaimExtractor("changes/1"): patterns[0].pattern: expected a regular expression (/…/), got the string \'has been cancelled\'',
    );
    expect(() => claims({ id: 'changes/1', patterns: [{ pattern: /done/, tool: ['x'] }] })).toThrow(
      'changeClaimExtractor("changes/1"): patterns[0].tool: is not an option; did you mean "tools"? Accepted: pattern, tools',
    );
  });

  it('accepts correct options and extracts claims', () => {
    const extractor = changeClaimExtractor({ id: 'changes/1', patterns, identifiers: /\b[A-Z]{3}\d{3}\b/g });
    expect(extractor.extract('Your booking ABC123 has been cancelled.')).toEqual([
      { action: 'completed', target: 'cancel_reservation', text: 'Your booking ABC123 has been cancelled.' },
    ]);
  });
});
