import type { AttemptRecord, TrialProgress, TrialSuite, Verdict } from '../model/index.js';
import type { StoppingDecision } from '../statistics/index.js';

/** A snapshot of a running trial: per arm the attempts done of those planned, the verdict tally, the rule's call. */
export function trialProgress(
  suite: TrialSuite,
  rule: string,
  arms: ReadonlyMap<
    string,
    {
      records: readonly AttemptRecord[];
      verdicts: Readonly<Partial<Record<Verdict, number>>>;
      stoppedBy: { decision: StoppingDecision } | null;
    }
  >,
): TrialProgress {
  return {
    trial: suite.name,
    rule,
    arms: suite.arms.map((arm) => {
      const state = arms.get(arm.id);
      // The tallies kept as attempts finish: counting the records again after every attempt grew with their square.
      const verdicts = { ...state?.verdicts };
      const decision = state?.stoppedBy?.decision;
      return {
        arm: arm.id,
        done: state?.records.length ?? 0,
        planned: suite.repeat.n,
        verdicts,
        stopped: decision === undefined || decision === 'continue' ? null : decision,
      };
    }),
  };
}
