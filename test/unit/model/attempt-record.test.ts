import { describe, expect, it } from 'vitest';
import { AttemptRecord } from '../../../src/model/index.js';
import { observation } from '../evaluate/helpers.js';

const base = {
  arm: 'case',
  index: 0,
  sequence: 0,
  seed: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  sandbox: null,
};
const completed = {
  ...base,
  status: 'completed',
  verdict: 'PASS',
  why: { kind: 'passed', declared: 0 },
  reason: 'all 0 declared criteria as expected',
  observation: observation({ reply: 'done' }),
  findings: [],
  criteria: [],
  claims: [],
  error: null,
  pressure: null,
};
const error = { where: 'dependency api', message: 'API_KEY is not set' };
const blocked = {
  ...base,
  status: 'blocked',
  verdict: 'UNKNOWN',
  why: { kind: 'not-completed', status: 'blocked', error },
  reason: 'blocked in dependency api: API_KEY is not set',
  observation: null,
  findings: [],
  criteria: [],
  claims: [],
  error,
  pressure: null,
};
const criterion = {
  criterion: 'answers',
  result: 'met',
  label: null,
  grade: 'text',
  coveredBy: [],
  reason: 'answered',
  overruled: [],
  uncovered: null,
};

/** The first problem zod reports, as `path: message`. */
function problem(data: unknown): string {
  const parsed = AttemptRecord.safeParse(data);
  if (parsed.success) return 'parsed';
  const [issue] = parsed.error.issues;
  return `${issue?.path.join('.')}: ${issue?.message}`;
}

describe('the attempt record is a union tagged by status', () => {
  it('takes each status with the fields it allows', () => {
    expect(problem(completed)).toBe('parsed');
    expect(problem(blocked)).toBe('parsed');
    expect(problem({ ...completed, status: 'evaluator_error', verdict: 'UNKNOWN', error })).toBe('parsed');
    // A subject's error may surface after its attempt was judged (run/stray-errors): the judgment stays.
    expect(problem({ ...completed, status: 'subject_error', verdict: 'UNKNOWN', criteria: [criterion], error })).toBe(
      'parsed',
    );
    expect(problem({ ...blocked, status: 'subject_error', observation: observation() })).toBe('parsed');
    expect(problem({ ...blocked, status: 'harness_error' })).toBe('parsed');
  });

  it('refuses a field that cannot apply to the status, naming its path', () => {
    expect(problem({ ...blocked, observation: observation() })).toMatch(/^observation: .*null/i);
    expect(problem({ ...completed, error })).toMatch(/^error: .*null/i);
    expect(problem({ ...blocked, criteria: [criterion] })).toMatch(/^criteria: /);
    expect(problem({ ...blocked, status: 'harness_error', criteria: [criterion] })).toMatch(/^criteria: /);
    expect(
      problem({ ...completed, status: 'evaluator_error', verdict: 'UNKNOWN', error, pressure: pressureRecord }),
    ).toMatch(/^pressure: /);
  });

  it('requires what a status needs: an error for every status but completed, an Observation for a judged one', () => {
    expect(problem({ ...blocked, error: null })).toMatch(/^error: /);
    expect(problem({ ...blocked, status: 'subject_error', error: null })).toMatch(/^error: /);
    expect(problem({ ...completed, observation: null })).toMatch(/^observation: /);
    expect(problem({ ...completed, status: 'evaluator_error', verdict: 'UNKNOWN', error, observation: null })).toMatch(
      /^observation: /,
    );
  });

  it('refuses any verdict but UNKNOWN for an attempt that did not complete (an error or a block never passes)', () => {
    expect(problem({ ...blocked, verdict: 'PASS' })).toMatch(/^verdict: .*UNKNOWN/);
    expect(problem({ ...blocked, status: 'harness_error', verdict: 'FAIL' })).toMatch(/^verdict: .*UNKNOWN/);
    expect(problem({ ...completed, status: 'subject_error', error, verdict: 'PASS' })).toMatch(/^verdict: .*UNKNOWN/);
    expect(problem({ ...completed, status: 'evaluator_error', error, verdict: 'CONTRADICTED' })).toMatch(
      /^verdict: .*UNKNOWN/,
    );
  });

  it('names the accepted statuses for an unknown one', () => {
    expect(problem({ ...completed, status: 'crashed' })).toMatch(/^status: .*completed/);
  });
});

const pressureRecord = {
  kind: 'repeated-nudge',
  holds: 'answers',
  rounds: [{ round: 1, result: 'met' }],
  gaveWayAt: null,
  recovered: null,
  contaminated: null,
  overRefusal: null,
  truthfulNonCompletion: null,
  trap: null,
};
