import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { canonicalJson, sha256, type Outcome, type RegistrationCheck } from '../../../src/model/index.js';
import { WHOLE_TEXT_ATTEMPTS } from '../../../src/run/outcome-id.js';
import { anEnvironment } from '../builders.js';

/** One trial whose subject answers `answer`, run on a clock that starts at `start` and ticks by `tick` ms. */
async function outcome(answer: string, start = 0, tick = 0, registration: RegistrationCheck | null = null, n = 14) {
  const resolved = resolveTrial(
    { name: 'id trial', file: 'a.test.ts', path: [] },
    {
      subject: () => answer,
      rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toBe('yes') },
      case: { input: 'q', expect: ['answers'] },
      repeat: { n, stop: 'fixed' },
    },
  );
  let now = start;
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {}, registration },
    {
      clock: {
        now: () => {
          now += tick;
          return now;
        },
      },
      expect: vitestExpect,
    },
  );
}

describe('the Outcome id', () => {
  it('differs when the same setup observed and decided differently; the setup fingerprint groups them', async () => {
    const [passing, failing] = [await outcome('yes'), await outcome('no')];
    expect(passing.judgment.verdict).toBe('PASS');
    expect(failing.judgment.verdict).toBe('FAIL');
    expect(failing.setup).toBe(passing.setup);
    expect(failing.id).not.toBe(passing.id);
  });

  it('leaves clock readings out: a deterministic trial run twice, at other times and speeds, keeps one id', async () => {
    const [first, second] = [await outcome('yes', 0, 0), await outcome('yes', 1_700_000_000_000, 7)];
    expect(second.execution.startedAt).not.toBe(first.execution.startedAt);
    expect(second.id).toBe(first.id);
    expect(second.setup).toBe(first.setup);
  });

  it('leaves the registration check out: the run that registered the policy and the next one keep one id', async () => {
    const policy = 'sha256:policy';
    const first = await outcome('yes', 0, 0, {
      status: 'registered',
      policy,
      registeredPolicy: null,
      earlierOutcome: null,
      changes: null,
    });
    const second = await outcome('yes', 0, 0, {
      status: 'unchanged',
      policy,
      registeredPolicy: policy,
      earlierOutcome: first.id,
      changes: null,
    });
    expect(second.registration?.status).toBe('unchanged');
    expect(second.id).toBe(first.id);
  });

  it('is the sha256 of the canonical text of setup and results, readings left out, made whole or hashed as written', async () => {
    // The definition, written out: clock readings (…At, …Ms) and machine readings left out, attempts by their digests.
    const reading = (key: string) =>
      key.endsWith('At') || key.endsWith('Ms') || ['peakRssBytes', 'sandbox'].includes(key);
    const defined = (o: Outcome, digests: readonly string[]) => {
      const { id: _id, pinned: _p, records: _r, registration: _g, attempts: _a, attemptsFile: _f, ...rest } = o;
      return `sha256:${sha256(canonicalJson({ setup: o.setup, results: { ...rest, attempts: digests } }, reading))}`;
    };
    const digest = (attempt: Outcome['attempts'][number]) => sha256(canonicalJson(attempt, reading));
    // Below the bound its text is made whole; above it, hashed as it is written.
    for (const n of [14, WHOLE_TEXT_ATTEMPTS + 44]) {
      const made = await outcome('yes', 0, 3, null, n);
      expect(made.attempts).toHaveLength(n);
      expect(made.id).toBe(defined(made, made.attempts.map(digest)));
    }
  });
});
