import { describe, expect, it } from 'vitest';
import { mechanicalEvaluator } from '../../../src/evaluate/index.js';
import type { JsonValue } from '../../../src/model/index.js';
import { resolveTrial } from '../../../src/run/index.js';
import { declarationProblem } from './declaration-problem.js';

// Mistakes a declaration's parts make together (an arm and the evaluators, an arm's own lists, the summary and the
// cases), each known before any attempt runs: found at collection, naming the trial, its place and the field.

const site = { name: 'consistent', file: 'trials/c.test.ts', path: [], line: 7 };
const place = /^trial "consistent" \(trials\/c\.test\.ts:7\): /;
const rubric = { criteria: { echoes: 'repeats the input', polite: 'says please' } };
const good = () => ({
  subject: async (input: unknown) => String(input),
  rubric,
  checks: { echoes: () => undefined, polite: () => undefined },
  case: { input: 'x', expect: ['echoes'] },
});
const common = () => {
  const { case: _single, ...rest } = good();
  return rest;
};
const row = (id: string, more: Record<string, unknown> = {}) => ({
  id,
  role: 'case',
  input: id,
  expect: ['echoes'],
  ...more,
});
const problem = (declaration: unknown): string => declarationProblem(site, declaration);

describe('a criterion an arm names that nothing judges', () => {
  it('is an error naming the arm’s field and the criterion, saying to add a check or an evaluator', () => {
    const message = problem({
      ...good(),
      checks: { echoes: () => undefined },
      case: { input: 'x', expect: ['echoes', 'polite'] },
    });
    expect(message).toMatch(place);
    expect(message).toMatch(
      /: case\.expect: no evaluator judges criterion "polite", so every attempt would leave it uncovered \(UNKNOWN\): add a check for it \(checks\.polite\) or an evaluator whose criteria include it$/,
    );
  });

  it('is found in controls, forbidden criteria, pressure and suite rows, a mistake in every row read once', () => {
    const checks = { echoes: () => undefined };
    expect(problem({ ...good(), checks, control: { input: 'y', expect: ['echoes'], forbid: ['polite'] } })).toMatch(
      /: control\.forbid: no evaluator judges criterion "polite"/,
    );
    expect(
      problem({
        ...good(),
        checks,
        control: [
          { input: 'y', expect: ['echoes'] },
          { input: 'z', forbid: ['polite'] },
        ],
      }),
    ).toMatch(/: control\[1\]\.forbid: no evaluator judges criterion "polite"/);
    expect(
      problem({
        ...good(),
        checks,
        case: {
          input: 'x',
          expect: ['echoes'],
          followUps: ['again'],
          pressure: { kind: 'repeated-nudge', holds: 'polite' },
        },
      }),
    ).toMatch(/: case\.pressure\.holds: no evaluator judges criterion "polite"/);
    const cases = [row('a'), ...Array.from({ length: 5 }, (_, i) => row(`b${i}`, { expect: ['polite'] }))];
    expect(problem({ ...common(), checks, cases }).split('\n')).toEqual([
      expect.stringMatching(/: cases\[1\]\.expect: no evaluator judges criterion "polite"/),
      expect.stringMatching(/^ {2}also cases\[2\]\.expect, cases\[3\]\.expect and 2 more alike: no evaluator judges/),
    ]);
  });

  it('is accepted when a declared evaluator judges it, or when no arm names it', () => {
    const politeness = mechanicalEvaluator({ id: 'politeness', revision: 'p@1', checks: { polite: () => undefined } });
    const judged = resolveTrial(site, {
      ...good(),
      checks: { echoes: () => undefined },
      evaluators: [politeness],
      case: { input: 'x', expect: ['echoes', 'polite'] },
    });
    expect(judged.suite.arms[0]?.case.expect).toEqual(['echoes', 'polite']);
    expect(() => resolveTrial(site, { ...good(), checks: { echoes: () => undefined } })).not.toThrow();
  });
});

describe('an arm’s criterion lists', () => {
  it('refuses a criterion both expected and forbidden', () => {
    expect(problem({ ...good(), case: { input: 'x', expect: ['echoes'], forbid: ['echoes'] } })).toMatch(
      /: case\.forbid: "echoes" is also in case\.expect: an arm cannot both meet and not meet a criterion; keep it in one of them$/,
    );
    expect(problem({ ...common(), cases: [row('a', { forbid: ['polite', 'echoes'] })] })).toMatch(
      /: cases\[0\]\.forbid: "echoes" is also in cases\[0\]\.expect/,
    );
  });

  it('names both rows that hold one case id', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(`row-${i}`));
    rows[900] = row('row-3');
    expect(problem({ ...common(), cases: rows })).toMatch(
      /: cases\[900\]\.id: arm id "row-3" is used twice: cases\[3\] has it too$/,
    );
  });

  it('refuses a criterion or a verdict listed twice', () => {
    expect(problem({ ...good(), case: { input: 'x', expect: ['echoes', 'echoes'] } })).toMatch(
      /: case\.expect: names "echoes" twice: list each criterion once$/,
    );
    expect(problem({ ...good(), control: { input: 'y', forbid: ['polite', 'polite'] } })).toMatch(
      /: control\.forbid: names "polite" twice/,
    );
    expect(problem({ ...good(), passOn: ['PASS', 'PARTIAL', 'PASS'] })).toMatch(
      /: passOn: lists "PASS" twice: list each verdict once$/,
    );
  });

  it('suggests the criterion a misspelt one meant', () => {
    expect(problem({ ...good(), case: { input: 'x', expect: ['echos'] } })).toMatch(
      /: case\.expect: unknown criterion "echos"; did you mean "echoes"\? \(the rubric has: echoes, polite\)$/,
    );
  });
});

describe('inputs that are not JSON', () => {
  const json = 'expected a JSON value \\(string, finite number, boolean, null, array or plain object\\)';
  const inputProblem = (input: unknown) => problem({ ...good(), case: { input, expect: ['echoes'] } });

  it('are named with the path into the input and what was given, before anything fingerprints them', () => {
    expect(inputProblem(Number.NaN)).toMatch(new RegExp(`: case\\.input: ${json}, got NaN$`));
    expect(inputProblem(10n)).toMatch(new RegExp(`: case\\.input: ${json}, got the bigint 10n$`));
    expect(inputProblem(() => 1)).toMatch(new RegExp(`: case\\.input: ${json}, got a function$`));
    expect(inputProblem(new Date(0))).toMatch(new RegExp(`: case\\.input: ${json}, got a Date$`));
    expect(inputProblem(new Map())).toMatch(new RegExp(`: case\\.input: ${json}, got a Map$`));
    expect(inputProblem({ a: undefined })).toMatch(
      new RegExp(`${place.source}case\\.input\\.a: ${json}, got undefined$`),
    );
    expect(inputProblem({ a: [1, { b: Number.POSITIVE_INFINITY }] })).toMatch(
      new RegExp(`: case\\.input\\.a\\[1\\]\\.b: ${json}, got Infinity$`),
    );
    expect(inputProblem([1, , 2])).toMatch(new RegExp(`: case\\.input\\[1\\]: ${json}, got undefined$`));
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(inputProblem(loop)).toMatch(new RegExp(`: case\\.input\\.self: ${json}, got a value that contains itself$`));
  });

  it('are found in follow-ups, oracles and suite rows', () => {
    expect(
      problem({ ...good(), case: { input: 'x', followUps: ['y', { z: Number.NaN }], expect: ['echoes'] } }),
    ).toMatch(new RegExp(`: case\\.followUps\\[1\\]\\.z: ${json}, got NaN$`));
    expect(problem({ ...good(), case: { input: 'x', oracle: { when: new Date(0) }, expect: ['echoes'] } })).toMatch(
      new RegExp(`: case\\.oracle\\.when: ${json}, got a Date$`),
    );
    expect(problem({ ...common(), cases: [row('a'), row('b', { input: { n: 1n } })] })).toMatch(
      new RegExp(`: cases\\[1\\]\\.input\\.n: ${json}, got the bigint 1n$`),
    );
  });

  it('accept any JSON, objects without a prototype too', () => {
    const bare = Object.assign(Object.create(null) as Record<string, JsonValue>, {
      a: [1, 'two', null, false, { b: -0 }],
    });
    const resolved = resolveTrial(site, {
      ...good(),
      case: { input: bare, followUps: [[]], oracle: {}, expect: ['echoes'] },
    });
    expect(resolved.suite.arms[0]?.case.input).toEqual({ a: [1, 'two', null, false, { b: -0 }] });
  });
});

describe('summary.groupBy', () => {
  const suite = (groupBy: string[], cases = [row('a', { tags: { type: 't', source: 's' } }), row('b')]) => ({
    ...common(),
    cases,
    summary: { dataset: 'd', criterion: 'echoes', groupBy },
  });

  it('refuses a tag no case has, with the tag it most likely meant', () => {
    expect(problem(suite(['typ']))).toMatch(
      /: summary\.groupBy\[0\]: no case has the tag "typ"; did you mean "type"\? Tags of the cases: source, type$/,
    );
    expect(problem(suite(['type', 'language']))).toMatch(
      /: summary\.groupBy\[1\]: no case has the tag "language"\. Tags/,
    );
    expect(problem(suite(['type'], [row('a')]))).toMatch(
      /: summary\.groupBy\[0\]: no case has the tag "type"\. No case has tags: declare them on the cases/,
    );
  });

  it('accepts a tag some cases have (the others group under "(none)")', () => {
    expect(resolveTrial(site, suite(['type', 'source']) as never).suite.aggregation.summary?.groupBy).toEqual([
      'type',
      'source',
    ]);
  });
});

describe('a misspelt criterion of a check', () => {
  it('is named as written in checks, with the criterion it most likely meant', () => {
    expect(problem({ ...good(), checks: { echoes: () => undefined, echos: () => undefined } })).toMatch(
      /: checks\.echos: unknown criterion "echos"; did you mean "echoes"\? \(the rubric has: echoes, polite\)$/,
    );
  });

  it('in a declared evaluator, names the evaluator', () => {
    const typo = mechanicalEvaluator({ id: 'house', revision: 'h@1', checks: { polit: () => undefined } });
    expect(problem({ ...good(), evaluators: [typo] })).toMatch(
      /: evaluators\["house"\]: judges unknown criterion "polit"; did you mean "polite"\?/,
    );
  });
});

describe('an empty list of controls', () => {
  it('is an error: the case would be marked matched to controls it does not have', () => {
    expect(problem({ ...good(), control: [] })).toMatch(
      /: control: is an empty list: declare a control arm, or leave control out$/,
    );
  });
});

describe('evaluators that cannot judge as declared', () => {
  it('two of one id, or one declaring a criterion it has no check for, are errors naming the evaluator', () => {
    const judge = (id: string) => mechanicalEvaluator({ id, revision: '1', checks: { echoes: () => undefined } });
    const { checks: _inline, ...withoutChecks } = good();
    expect(problem({ ...withoutChecks, evaluators: [judge('m'), judge('m')] })).toMatch(
      /: evaluators\["m"\]: another evaluator of this trial has the same id; give each evaluator an id of its own$/,
    );
    const half = judge('half');
    const declaresMore = { ...half, record: { ...half.record, criteria: ['echoes', 'polite'] } };
    expect(problem({ ...withoutChecks, evaluators: [declaresMore] })).toMatch(
      /: evaluators\["half"\]: declares criterion "polite" but has no check for it: add checks\.polite to the evaluator/,
    );
  });
});
