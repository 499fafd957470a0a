import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { replyObservation, type AttemptRecord } from '../../../src/model/index.js';
import { DISTINCT_SHARED, LeanAttempts, leanAttempt } from '../../../src/run/lean-attempts.js';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment, attempt, result } from '../builders.js';

/** The whole attempts of a trial of n attempts, every third one failing its check. */
async function wholeAttempts(n: number): Promise<AttemptRecord[]> {
  let calls = 0;
  const resolved = resolveTrial(
    { name: 'lean trial', file: 'lean.test.ts', path: [] },
    {
      subject: () => (++calls % 3 === 0 ? 'no' : 'yes'),
      revision: 'lean@1',
      rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toMatch(/^yes/) },
      case: { input: 'a', expect: ['answers'] },
      repeat: { n, stop: 'fixed' },
    },
  );
  const outcome = await runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
  return outcome.attempts;
}

describe('lean attempts with alike parts shared', () => {
  it('equal the lean copies in value, one shared frozen value per alike part', async () => {
    const whole = await wholeAttempts(9);
    const lean = new LeanAttempts();
    const kept = whole.map((record) => lean.of(record));
    expect(kept).toEqual(whole.map(leanAttempt));
    const [first, second, failed, fourth] = kept as [AttemptRecord, AttemptRecord, AttemptRecord, AttemptRecord];
    // Attempts 0 and 1 passed alike, 2 failed: theirs are one value each, the failure's its own.
    expect(second.findings).toBe(first.findings);
    expect(second.criteria).toBe(first.criteria);
    expect(second.observation).toBe(first.observation);
    expect(second.why).toBe(first.why);
    expect(failed.criteria).not.toBe(first.criteria);
    expect(fourth.criteria).toBe(first.criteria);
    expect(first.observation?.rounds).toEqual([]);
    // A shared part changed in place would change every attempt holding it: it cannot be.
    expect(Object.isFrozen(first.criteria[0]?.coveredBy)).toBe(true);
    expect(() => (first.criteria as unknown[]).push(null)).toThrow(TypeError);
    // What differs per attempt stays its own.
    expect(kept.map((a) => [a.index, a.seed])).toEqual(whole.map((a) => [a.index, a.seed]));
  });

  it("tell a part apart from the last attempt's by every member, however deep", () => {
    const lean = new LeanAttempts();
    const base = attempt('case', 0, 'PASS', { criteria: [result('answers', 'met')] });
    const first = lean.of(base);
    const deeper = structuredClone(base.criteria);
    (deeper[0] as { coveredBy: { evidence: number; finding: number }[] }).coveredBy = [{ evidence: 1, finding: 0 }];
    const differs = lean.of({ ...base, index: 1, criteria: deeper });
    expect(differs.criteria).not.toBe(first.criteria);
    expect(differs.criteria).toEqual(deeper);
    // Back to the first attempt's criteria after one that differed: the first one's shared value again.
    const again = lean.of({ ...base, index: 2, criteria: structuredClone(base.criteria) });
    expect(again.criteria).toBe(first.criteria);
  });

  it("tell a part apart from the last attempt's by its members: one more, one fewer, or another in its place", () => {
    const lean = new LeanAttempts();
    const base = attempt('case', 0, 'PASS', { error: { where: 'subject', message: 'm' } });
    const first = lean.of(base);
    const variants: unknown[] = [
      { where: 'subject', message: 'm', extra: null },
      { where: 'subject' },
      { where: 'subject', note: 'm' },
      ['subject', 'm'],
    ];
    for (const [i, error] of variants.entries()) {
      const kept = lean.of({ ...base, index: i + 1, error } as AttemptRecord);
      expect(kept.error).not.toBe(first.error);
      expect(kept.error).toEqual(error);
    }
    expect(lean.of({ ...base, index: 9, error: { where: 'subject', message: 'm' } } as AttemptRecord).error).toBe(
      first.error,
    );
  });

  it('share the members of Observations that all differ (wall time, receipts), each member on its own', () => {
    const lean = new LeanAttempts();
    const observation = (i: number): NonNullable<AttemptRecord['observation']> => ({
      ...replyObservation('a', `reply ${i}`),
      resources: { wallMs: i, cpuMs: null, peakRssBytes: null },
      observers: [{ part: 'resources', observer: 'clock', grade: 'observation' }],
      receipts:
        i % 2 === 0
          ? [
              {
                provider: 'p',
                id: `call-${i}`,
                model: 'm',
                inputTokens: i,
                outputTokens: 1,
                costUsd: null,
                latencyMs: 5,
              },
            ]
          : [],
    });
    const records = Array.from({ length: DISTINCT_SHARED + 5 }, (_, i) =>
      attempt('case', i, 'PASS', { observation: observation(i) }),
    );
    const kept = records.map((record) => lean.of(record));
    expect(kept).toEqual(records.map(leanAttempt));
    const [before, last] = kept.slice(-2) as [AttemptRecord, AttemptRecord];
    // Each its own Observation, their alike members one value, what differs their own.
    expect(last.observation).not.toBe(before.observation);
    expect(last.observation?.observers).toBe(before.observation?.observers);
    expect(last.observation?.rounds).toBe(before.observation?.rounds);
    expect(last.observation?.resources).not.toBe(before.observation?.resources);
    expect(last.observation?.resources.wallMs).toBe(DISTINCT_SHARED + 4);
    expect(Object.isFrozen(last.observation?.observers)).toBe(true);
  });

  it('stop sharing a part past DISTINCT_SHARED distinct values, still equal in value', () => {
    const lean = new LeanAttempts();
    const records = Array.from({ length: DISTINCT_SHARED + 3 }, (_, i) =>
      attempt('case', i, 'PASS', { criteria: [{ ...result('answers', 'met'), reason: `met ${i}` }] }),
    );
    const kept = records.map((record) => lean.of(record));
    expect(kept).toEqual(records.map(leanAttempt));
    // Past the limit the part is no longer looked up whole: each item is a copy of its own, its alike members shared
    // with the item before, its own reason kept; the record's own list is neither changed nor frozen.
    const last = records.at(-1) as AttemptRecord;
    const [item] = (kept.at(-1) as AttemptRecord).criteria;
    expect((kept.at(-1) as AttemptRecord).criteria).not.toBe(last.criteria);
    expect(Object.isFrozen(last.criteria)).toBe(false);
    expect(item?.coveredBy).toBe((kept.at(-2) as AttemptRecord).criteria[0]?.coveredBy);
    expect(item?.overruled).toBe((kept.at(-2) as AttemptRecord).criteria[0]?.overruled);
    expect(item?.reason).toBe(`met ${DISTINCT_SHARED + 2}`);
    // An attempt alike the first is no longer given the first one's value.
    const first = records[0] as AttemptRecord;
    const again = lean.of({ ...first, criteria: structuredClone(first.criteria) });
    expect(again.criteria).not.toBe((kept[0] as AttemptRecord).criteria);
    expect(again.criteria).toEqual(first.criteria);
  });
});
