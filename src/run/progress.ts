import type { AttemptRecord, TrialProgress, TrialSuite, Verdict } from '../model/index.js';
import type { StoppingDecision } from '../statistics/index.js';

/** What a running trial keeps of one arm, as its snapshots read it. */
interface ArmProgressState {
  records: readonly AttemptRecord[];
  verdicts: Readonly<Partial<Record<Verdict, number>>>;
  stoppedBy: { decision: StoppingDecision } | null;
}

type ArmProgress = TrialProgress['arms'][number];

function armProgress(arm: string, planned: number, state: ArmProgressState | undefined): ArmProgress {
  // The tallies kept as attempts finish: counting the records again after every attempt grew with their square.
  const verdicts = { ...state?.verdicts };
  const decision = state?.stoppedBy?.decision;
  return {
    arm,
    done: state?.records.length ?? 0,
    planned,
    verdicts,
    stopped: decision === undefined || decision === 'continue' ? null : decision,
  };
}

/** A snapshot of a running trial: per arm the attempts done of those planned, the verdict tally, the rule's call. */
export function trialProgress(
  suite: TrialSuite,
  rule: string,
  arms: ReadonlyMap<string, ArmProgressState>,
): TrialProgress {
  return {
    trial: suite.name,
    rule,
    arms: suite.arms.map((arm) => armProgress(arm.id, suite.repeat.n, arms.get(arm.id))),
  };
}

/**
 * A running trial's snapshots, one after each attempt, equal to `trialProgress`'s: only the arm the attempt belongs to
 * has its entry made again, the others are those of the snapshot before (entries are never changed; each snapshot has
 * a list of its own). Making every arm's entry after every attempt grew with attempts × arms: 4.3 s of the 12.6 s a
 * data-driven suite of 5,000 one-attempt rows ran for.
 */
export class TrialProgressSnapshots {
  private readonly entries: ArmProgress[];
  private readonly at: ReadonlyMap<string, number>;

  constructor(
    private readonly suite: TrialSuite,
    private readonly rule: string,
    arms: ReadonlyMap<string, ArmProgressState>,
  ) {
    this.entries = trialProgress(suite, rule, arms).arms;
    this.at = new Map(this.entries.map((entry, i) => [entry.arm, i]));
  }

  /** The snapshot after an attempt of `arm`, whose state is now `state`. */
  after(arm: string, state: ArmProgressState | undefined): TrialProgress {
    const i = this.at.get(arm);
    if (i !== undefined) this.entries[i] = armProgress(arm, this.suite.repeat.n, state);
    return { trial: this.suite.name, rule: this.rule, arms: [...this.entries] };
  }
}
