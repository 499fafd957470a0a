import { describe, expect, it } from 'vitest';
import { Levenshtein } from 'autoevals';
import { autoevalsScorer, scorer } from '../../../src/evaluate/index.js';
import { RUBRIC_SCHEMA } from '../../../src/model/index.js';
import { resolveTrial } from '../../../src/run/index.js';
import { declarationProblem } from './declaration-problem.js';

const site = { name: 'scored', file: 'trials/s.test.ts', path: [], line: 7 };
const good = () => ({
  subject: async () => 'Paris',
  rubric: {
    criteria: {
      close: { description: 'close to the answer', needs: 'text', score: { cutoff: 0.8 } },
      polite: 'polite',
    },
  },
  checks: { close: scorer(() => 0.9), polite: () => undefined },
  case: { input: 'q', expect: ['close', 'polite'], oracle: 'Paris' },
});

const problem = (declaration: unknown): string => declarationProblem(site, declaration);

describe('scored criteria in a declaration', () => {
  it('pins the cutoff in the Rubric record (riddle.rubric/2), unscored criteria with score null', () => {
    const { rubric } = resolveTrial(site, good() as never);
    expect(rubric.schema).toBe(RUBRIC_SCHEMA);
    expect(rubric.criteria.map((c) => [c.name, c.score])).toEqual([
      ['close', { cutoff: 0.8 }],
      ['polite', null],
    ]);
  });

  it('a missing cutoff or one outside [0, 1] is a declaration error naming the field', () => {
    const withScore = (score: unknown) => ({
      ...good(),
      rubric: { criteria: { close: { needs: 'text', score }, polite: 'polite' } },
    });
    expect(problem(withScore({}))).toMatch(
      /^trial "scored" \(trials\/s\.test\.ts:7\): rubric\.criteria\.close\.score\.cutoff: is missing: expected a number/,
    );
    expect(problem(withScore({ cutoff: 1.5 }))).toMatch(
      /rubric\.criteria\.close\.score\.cutoff: must be in \[0, 1\] \(a score at or above it meets the criterion\), got the number 1\.5/,
    );
    expect(problem(withScore({ cutoff: -0.1 }))).toMatch(/rubric\.criteria\.close\.score\.cutoff: must be in \[0, 1\]/);
    expect(problem(withScore({ cutoff: '0.8' }))).toMatch(
      /rubric\.criteria\.close\.score\.cutoff: expected a number, got the string '0\.8'/,
    );
    expect(problem(withScore({ cutof: 0.8 }))).toMatch(
      /rubric\.criteria\.close\.score\.cutof: is not an option; did you mean "cutoff"\?/,
    );
  });

  it('a criterion both scored and labelled is a declaration error', () => {
    const both = {
      ...good(),
      rubric: {
        criteria: {
          close: { score: { cutoff: 0.5 }, labels: { vocabulary: ['a', 'b'], met: ['a'] } },
          polite: 'polite',
        },
      },
    };
    expect(problem(both)).toMatch(/rubric\.criteria\.close\.score: a criterion is either scored or labelled/);
  });

  it('a scorer on a criterion the Rubric does not score is a declaration error naming the check or evaluator', () => {
    expect(problem({ ...good(), checks: { close: scorer(() => 1), polite: scorer(() => 1) } })).toMatch(
      /checks\.polite: scores criterion "polite", which is not scored: declare rubric\.criteria\.polite\.score = \{ cutoff \}/,
    );
    const levenshtein = autoevalsScorer({ scorer: Levenshtein, criteria: ['polite'], revision: 'autoevals@0.3.0' });
    expect(problem({ ...good(), checks: { close: scorer(() => 1) }, evaluators: [levenshtein] })).toMatch(
      /evaluators\["autoevals Levenshtein"\]: scores criterion "polite", which is not scored/,
    );
  });

  it('reads a Rubric record of version 1 as the current version, every criterion unscored', () => {
    const record = {
      schema: 'riddle.rubric/1',
      id: 'r',
      revision: '1',
      criteria: [{ name: 'polite', description: 'polite', needs: 'text', required: true, target: null, labels: null }],
      threshold: { rate: 0.8, alpha: 0.05 },
      missingEvidence: 'bound',
      refusal: null,
    };
    const declared = {
      ...good(),
      rubric: record,
      checks: { polite: () => undefined },
      case: { input: 'q', expect: ['polite'] },
    };
    const { rubric } = resolveTrial(site, declared as never);
    expect(rubric.schema).toBe(RUBRIC_SCHEMA);
    expect(rubric.criteria[0]?.score).toBeNull();
  });
});
