import { describe, expect, it } from 'vitest';
import { AttemptRecord, systemClock } from '../../../src/model/index.js';
import type { Subject } from '../../../src/observe/index.js';
import { runAttempt } from '../../../src/run/attempt.js';
import { aCase, aRubric } from '../builders.js';

/** A subject that answers, then ends its round with the given failure (or none). */
const subject = (failure: { status: 'subject_error' | 'blocked'; message: string } | null): Subject => ({
  kind: 'function',
  name: 'answers',
  identify: async () => ({ kind: 'function', name: 'answers', revision: '1', revisionSource: 'declared' }),
  respond: async () => ({ reply: 'partial answer', ...(failure ? { failure } : {}) }),
});

const attempt = (s: Subject) =>
  runAttempt({ arm: 'case', index: 0, seed: 1 }, 0, {
    case: aCase({ expect: [] }),
    rubric: aRubric(),
    evaluators: [],
    subject: s,
    tools: [],
    clock: systemClock,
    expect: () => undefined,
    fixtures: null,
    observers: [],
    keepFailedSandbox: false,
    claimExtractors: [],
    sealedTexts: [],
  });

describe('runAttempt builds each status’s record', () => {
  it('a completed attempt keeps its Observation and no error', async () => {
    const record = await attempt(subject(null));
    expect(record).toMatchObject({ status: 'completed', error: null });
    expect(record.observation?.rounds[0]?.reply).toBe('partial answer');
    expect(AttemptRecord.safeParse(record).success).toBe(true);
  });

  it('a subject error keeps what was observed, with its error', async () => {
    const record = await attempt(subject({ status: 'subject_error', message: 'crashed' }));
    expect(record).toMatchObject({ status: 'subject_error', verdict: 'UNKNOWN', error: { message: 'crashed' } });
    expect(record.observation?.rounds[0]?.reply).toBe('partial answer');
    expect(AttemptRecord.safeParse(record).success).toBe(true);
  });

  it('a blocked attempt (a provider answer not recorded) keeps no Observation, only what was unavailable', async () => {
    const record = await attempt(subject({ status: 'blocked', message: 'no recording of POST /v1/chat' }));
    expect(record).toMatchObject({
      status: 'blocked',
      verdict: 'UNKNOWN',
      observation: null,
      findings: [],
      error: { message: 'no recording of POST /v1/chat' },
    });
    expect(AttemptRecord.safeParse(record).success).toBe(true);
  });
});
