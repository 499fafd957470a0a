import { describe, expect, it } from 'vitest';
import { resolveTrial } from '../../../src/run/index.js';
import { didYouMean, editDistance } from '../../../src/model/suggest.js';
import { declarationProblem } from './declaration-problem.js';

const site = { name: 'declared', file: 'trials/d.test.ts', path: [], line: 12 };
const good = () => ({
  subject: async () => 'ok',
  rubric: { criteria: { answers: 'gives the answer', declines: 'declines' } },
  checks: { answers: () => undefined, declines: () => 'declined' },
  case: { input: 'q', expect: ['answers'] },
});
const problem = (declaration: unknown): string => declarationProblem(site, declaration);

describe('the declaration schema', () => {
  it('accepts a well-formed declaration', () => {
    expect(resolveTrial(site, good()).suite.repeat.n).toBeGreaterThan(0);
  });

  it('names the trial and its file:line in every error', () => {
    expect(problem({ ...good(), repet: { n: 3 } })).toMatch(/^trial "declared" \(trials\/d\.test\.ts:12\): /);
  });

  it('rejects misspelt options with a did-you-mean and the accepted ones', () => {
    expect(problem({ ...good(), repet: { n: 3 } })).toMatch(
      /: repet: is not an option; did you mean "repeat"\? Accepted: subject, /,
    );
    expect(problem({ ...good(), repeat: { sed: 4 } })).toMatch(/repeat\.sed: is not an option; did you mean "seed"\?/);
    expect(problem({ ...good(), passon: ['PASS'] })).toMatch(/passon: is not an option; did you mean "passOn"\?/);
    expect(problem({ ...good(), rubric: { criteria: { answers: { description: 'x', neds: 'receipt' } } } })).toMatch(
      /rubric\.criteria\.answers\.neds: is not an option; did you mean "needs"\? Accepted: description, needs/,
    );
  });

  it('checks enumerations, naming the accepted values', () => {
    expect(problem({ ...good(), rubric: { criteria: { answers: { needs: 'reciept' } } } })).toMatch(
      /rubric\.criteria\.answers\.needs: got the string 'reciept'; did you mean 'receipt'\? Accepted: judgment, text, observation, receipt/,
    );
    expect(problem({ ...good(), repeat: { order: 'interleave' } })).toMatch(
      /repeat\.order: got the string 'interleave'; did you mean 'interleaved'\? Accepted: sequential, interleaved, shuffled/,
    );
    expect(problem({ ...good(), rubric: { ...good().rubric, missingEvidence: 'ignore' } })).toMatch(
      /rubric\.missingEvidence: got the string 'ignore'\. Accepted: bound, exclude/,
    );
    expect(problem({ ...good(), effectClass: 'nuclear' })).toMatch(
      /effectClass: got the string 'nuclear'\. Accepted: none, read/,
    );
  });

  it('names types as given', () => {
    expect(problem({ ...good(), rubric: 'be good' })).toMatch(
      /rubric: expected a rubric \{ criteria, threshold, … \} or a Rubric record, got the string 'be good'/,
    );
    expect(problem({ ...good(), repeat: { n: '20' } })).toMatch(/repeat\.n: expected a number, got the string '20'/);
    expect(problem({ ...good(), repeat: { n: Number.POSITIVE_INFINITY } })).toMatch(
      /repeat\.n: expected a finite number, got Infinity/,
    );
    expect(problem({ ...good(), repeat: { n: 2.5 } })).toMatch(
      /repeat\.n: must be a whole number ≥ 1, got the number 2\.5/,
    );
    expect(problem({ ...good(), case: undefined })).toMatch(/case: is missing: expected an arm/);
    expect(problem({ ...good(), case: { expect: ['answers'] } })).toMatch(/case\.input: is missing/);
    expect(problem({ ...good(), subject: 'gpt' })).toMatch(/subject: expected a function of the input, or a Subject/);
    expect(problem('declaration')).toMatch(/declaration: expected an object/);
  });

  it('checks nested stop rules and suite cases', () => {
    expect(problem({ ...good(), repeat: { stop: 'curtailed' } })).toMatch(
      /repeat\.stop: got the string 'curtailed'; did you mean 'curtail'\?/,
    );
    expect(
      problem({ ...good(), repeat: { stop: { kind: 'sprt', p0: 0.5, p1: 0.9, alpha: 0.05, beat: 0.1 } } }),
    ).toMatch(/repeat\.stop\.beat: is not an option; did you mean "beta"\?/);
    const { case: _unused, ...common } = good();
    expect(problem({ ...common, cases: [{ id: 'a', role: 'trap', input: 'q', expect: ['answers'] }] })).toMatch(
      /cases\[0\]\.role: got the string 'trap'\. Accepted: case, control/,
    );
    expect(problem({ ...common, cases: [], case: { input: 'q', expect: ['answers'] } })).toMatch(
      /case: is not an option; did you mean "cases"\?/,
    );
  });

  it('lists further problems found at once', () => {
    const message = problem({ ...good(), repet: {}, effectClass: 'nuclear' });
    expect(message.split('\n')).toHaveLength(2);
    expect(message).toMatch(/\n {2}also (repet|effectClass): /);
  });

  it('reads a mistake repeated in every row of a suite of a thousand once, with how many rows', () => {
    const { case: _single, ...common } = good();
    const cases = Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}`, input: 'q', expect: ['answers'] }));
    cases[500] = { id: 'r500', input: 'q', expect: 'answers' as unknown as string[] };
    const message = problem({ ...common, cases });
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/: cases\[0\]\.role: is missing: one of case, control$/),
      '  also cases[1].role, cases[2].role and 997 more alike: is missing: one of case, control',
      expect.stringMatching(/^ {2}also cases\[500\]\.expect: /),
    ]);
  });

  it('lists at most ten further problems, and counts the rest', () => {
    const { case: _single, ...common } = good();
    // Each row with an option of its own that is none: fifteen problems, none alike.
    const cases = Array.from({ length: 15 }, (_, i) => ({
      id: `r${i}`,
      role: 'case',
      input: 'q',
      expect: ['answers'],
      [`option${i}`]: true,
    }));
    const message = problem({ ...common, cases });
    const lines = message.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[11]).toMatch(/^ {2}and \d+ more problems$/);
  });
});

describe('did you mean', () => {
  it('finds the nearest accepted word within a third of its length', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('reciept', 'receipt')).toBe(1);
    expect(editDistance('passon', 'passOn')).toBe(0);
    expect(didYouMean('repet', ['repeat', 'rubric'])).toBe('repeat');
    expect(didYouMean('nuclear', ['none', 'read', 'write', 'irreversible'])).toBeNull();
  });
});
