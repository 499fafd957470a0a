import { describe, expect, it } from 'vitest';
import { summarizeAttempts } from '../../../src/report/index.js';
import { readStreamedAttempts } from '../../../src/vitest/streamed-attempts.js';
import { exampleOutcomes } from '../report/example-run.js';

describe('readStreamedAttempts', () => {
  it('summarises an Outcome that holds its attempts inline once, for every renderer', async () => {
    const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0);
    if (!outcome) throw new Error('no Outcome with attempts');
    const read = await readStreamedAttempts([{ outcome: { ...outcome, attemptsFile: null }, leftOut: null }]);
    expect(read.outcomes).toHaveLength(1);
    expect(read.summaries).toEqual([summarizeAttempts(outcome)]);
    expect(read.summaries[0]?.count).toBe(outcome.attempts.length);
    expect(read.attemptFiles.size).toBe(0);
  });
});
