import { describe, expect, it } from 'vitest';
import type { AttemptRecord, Verdict } from '../../../src/model/index.js';
import { resolveTrial, trialProgress } from '../../../src/run/index.js';
import { TrialProgressSnapshots } from '../../../src/run/progress.js';

const rubric = { criteria: { answers: { description: 'answers yes', needs: 'text' as const } } };

describe('TrialProgressSnapshots', () => {
  it('gives after each attempt what trialProgress gives, and never changes a snapshot it gave', () => {
    const { suite } = resolveTrial(
      { name: 'progress', file: 'unit.test.ts', path: [] },
      {
        subject: () => 'yes',
        rubric,
        checks: { answers: () => {} },
        cases: ['a', 'b', 'c'].map((id) => ({ id, role: 'case' as const, group: id, input: id, expect: ['answers'] })),
        repeat: { n: 3 },
      },
    );
    type State = {
      records: AttemptRecord[];
      verdicts: Partial<Record<Verdict, number>>;
      stoppedBy: { decision: 'pass' | 'fail' | 'inconclusive' | 'continue' } | null;
    };
    const state = new Map<string, State>(
      suite.arms.map((arm) => [arm.id, { records: [], verdicts: {}, stoppedBy: null }]),
    );
    const arms = suite.arms.map((arm) => arm.id);
    // Attempts finishing across the arms out of order, one arm stopped by its rule part-way.
    const finished: [string, Verdict][] = [
      [arms[1] as string, 'PASS'],
      [arms[0] as string, 'FAIL'],
      [arms[1] as string, 'PASS'],
      [arms[2] as string, 'UNKNOWN'],
      [arms[1] as string, 'FAIL'],
      [arms[0] as string, 'PASS'],
    ];
    let snapshots: TrialProgressSnapshots | undefined;
    const given: { snapshot: ReturnType<typeof trialProgress>; then: string }[] = [];
    for (const [i, [arm, verdict]] of finished.entries()) {
      const s = state.get(arm) as State;
      s.records.push({ arm, verdict } as AttemptRecord);
      s.verdicts[verdict] = (s.verdicts[verdict] ?? 0) + 1;
      if (i === 2) s.stoppedBy = { decision: 'pass' };
      snapshots ??= new TrialProgressSnapshots(suite, 'fixed n=3', state);
      const snapshot = snapshots.after(arm, s);
      expect(snapshot).toEqual(trialProgress(suite, 'fixed n=3', state));
      given.push({ snapshot, then: JSON.stringify(snapshot) });
    }
    for (const { snapshot, then } of given) expect(JSON.stringify(snapshot)).toBe(then);
    expect(given.at(-1)?.snapshot.arms.map((a) => [a.done, a.stopped])).toEqual([
      [2, null],
      [3, 'pass'],
      [1, null],
    ]);
  });
});
