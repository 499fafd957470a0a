import { setTimeout } from 'node:timers';
import type {
  AttemptRecord,
  Case,
  Clock,
  Dependency,
  Environment,
  Outcome,
  RegistrationCheck,
  Rubric,
  TrialProgress,
  TrialSuite,
  Verdict,
  Budget,
  PriceTable,
} from '../model/index.js';
import { decideAttempt } from './attempt-decision.js';
import type { ClaimExtractor, EvaluatorDefinition, ExpectFunction, SoftAssertions } from '../evaluate/index.js';
import type { ProviderGateway, RowObserver, Subject, ToolDefinition } from '../observe/index.js';
import { stoppingDecision, type StoppingDecision } from '../statistics/index.js';
import { runAttempt, type AttemptSetup } from './attempt.js';
import { JudgingTurns } from './judging-turns.js';
import { LoopTurns } from './loop-turns.js';
import { BudgetMeter } from './budget.js';
import { RunBudgetGate, type RunLedger } from './run-budget.js';
import { assembleOutcome } from './outcome.js';
import { sealedTexts } from './sealing.js';
import { scheduleAttempts, type AttemptSlot } from './schedule.js';
import { describeRule, stoppingRuleFor } from './stopping.js';
import { decideTrial } from './decide.js';
import { TrialProgressSnapshots } from './progress.js';
import { describeInterruption } from './interrupt.js';
import { StrayErrors, withStrayErrors } from './stray-errors.js';
import { defaultOutsideRoots, OutsideWatch, outsideWindow } from '../observe/outside-writes.js';
import type { AttemptSink } from './held-attempts.js';

/** Everything a trial needs to run, resolved and pinned by the caller (the host adapter). */
export interface TrialPlan {
  suite: TrialSuite;
  rubric: Rubric;
  evaluators: readonly EvaluatorDefinition[];
  subject: Subject;
  tools: readonly ToolDefinition[];
  environment: Environment;
  /** Declared dependencies found unavailable before the run, with what was found. */
  unavailable: readonly { dependency: Dependency; detail: string }[];
  /** Absolute fixture folders by arm id. */
  fixtures: Readonly<Record<string, string>>;
  /** Sealed arms' Cases as they run, by arm id (the suite pins them by fingerprint only). */
  sealed: Readonly<Record<string, Case>>;
  observers: readonly RowObserver[];
  keepFailedSandboxes: boolean;
  claimExtractors: readonly ClaimExtractor[];
  /**
   * For a holdout trial granted access: which access this run is, of the budget, and whether its attempts are shown
   * (revealed) or the Outcome is assembled with verdicts and rates only; absent or null otherwise.
   */
  holdout?: { access: number; budget: number; revealed: boolean } | null;
  /** How the declared policy stands against the project's registrations (run/registrations); absent or null when not checked. */
  registration?: RegistrationCheck | null;
  /** Declared spending limits: attempts that would start once one is spent are blocked. Absent or null: none. */
  budget?: Budget | null;
  /** Prices receipts without a cost of their own are costed at, by model. */
  prices?: PriceTable;
  /** The trial's provider traffic (recorded, replayed or live), when providers are declared. */
  providers?: ProviderGateway | null;
}

export interface RunServices {
  clock: Clock;
  expect: ExpectFunction;
  /** The failures the host records without throwing (`expect.soft`), which checks make unmet; absent: none. */
  softAssertions?: SoftAssertions;
  /** Aborting cuts the trial short: attempts not yet started are recorded as not run, the verdict UNKNOWN. */
  signal?: AbortSignal;
  /** Called after every attempt with the trial's progress so far (live progress in the host's reporter). */
  onProgress?: (progress: TrialProgress) => void;
  /** The run-wide budget shared by every trial in every worker (run/run-budget.ts); absent or null: none. */
  runBudget?: RunLedger | null;
  /**
   * Where each attempt is written as it finishes (run/attempt-stream, or run/held-attempts in front of one): the trial
   * then keeps lean copies only, and its Outcome names the file instead of holding the attempts (unless the sink never
   * wrote one). Not used for a holdout whose attempts are concealed.
   */
  attempts?: AttemptSink | null;
  /**
   * The project folder: with it, an unisolated command or function subject's writes outside its workspace are watched
   * (observe/outside-writes) and recorded in `execution.outsideWrites`; absent: not watched.
   */
  root?: string;
  /** riddle's report folder (absolute), where trials write their attempts while they run: never watched as a write. */
  reportDir?: string | null;
}

/** Longest stretch of attempts run without the event loop turning (see LoopTurns). */
const TURN_EVERY_MS = 10;

interface ArmState {
  records: AttemptRecord[];
  /** Verdict tallies of `records`, kept as records are added: stopping and progress read them after every attempt. */
  verdicts: Partial<Record<Verdict, number>>;
  stoppedBy: { afterAttempts: number; decision: StoppingDecision } | null;
}

/**
 * Run a trial: every arm's attempts in the declared order with the declared concurrency, stopping an arm only
 * under the declared rule, then judge and assemble the Outcome. Never throws for what a subject or evaluator does.
 */
export async function runTrial(plan: TrialPlan, services: RunServices): Promise<Outcome> {
  const { suite, rubric } = plan;
  const startedAt = new Date(services.clock.now()).toISOString();
  const rule = stoppingRuleFor(suite, rubric);
  const state = new Map<string, ArmState>(
    suite.arms.map((arm) => [arm.id, { records: [], verdicts: {}, stoppedBy: null }]),
  );
  const blocking = plan.unavailable.filter((u) => u.dependency.onUnavailable === 'blocked');
  const broken = plan.unavailable.filter((u) => u.dependency.onUnavailable === 'harness_error');
  const schedule = scheduleAttempts(suite);
  const order: string[] = [];
  const notRun = new Map<string, { count: number; reason: string }>();
  /** Per arm, attempts the run's cut kept from running (a declared stopping rule's are not among them). */
  const cutShort = new Map<string, number>();
  const meter = plan.budget
    ? new BudgetMeter(plan.budget, plan.prices ?? {}, () => services.clock.now(), services.clock.now())
    : null;
  const runGate = services.runBudget
    ? new RunBudgetGate(services.runBudget, suite.name, plan.prices ?? {}, () => services.clock.now())
    : null;

  /** The Case an arm runs: a sealed arm's as it runs (the suite pins it by fingerprint only). */
  const declaredCases = new Map(suite.arms.map((arm) => [arm.id, arm.case]));
  const caseOf = (arm: string): Case | undefined => plan.sealed[arm] ?? declaredCases.get(arm);
  const noteSkipped = (slot: AttemptSlot, reason: string) => {
    const entry = notRun.get(slot.arm) ?? { count: 0, reason };
    notRun.set(slot.arm, { count: entry.count + 1, reason: entry.reason });
  };
  const stoppedReason = (stop: NonNullable<ArmState['stoppedBy']>) =>
    `stopping rule (${describeRule(rule)}) decided ${stop.decision} after ${stop.afterAttempts} attempts`;
  /** An attempt the run's cut kept from running or finishing: cut short, unless the arm's own rule had ended it. */
  const cut = (slot: AttemptSlot, arm: ArmState, reason: string) => {
    if (arm.stoppedBy) {
      noteSkipped(slot, stoppedReason(arm.stoppedBy));
      return;
    }
    cutShort.set(slot.arm, (cutShort.get(slot.arm) ?? 0) + 1);
    noteSkipped(slot, reason);
  };
  const unrun = (
    slot: AttemptSlot,
    armCase: Case,
    sequence: number,
    status: 'blocked' | 'harness_error',
    where: string,
    message: string,
  ): AttemptRecord => {
    const error = { where, message };
    const { verdict, why, reason } = decideAttempt({ status, error, case: armCase, rubric, criteria: [], claims: [] });
    return {
      arm: slot.arm,
      index: slot.index,
      sequence,
      seed: slot.seed,
      status,
      verdict,
      why,
      reason,
      observation: null,
      findings: [],
      criteria: [],
      claims: [],
      error,
      startedAt: new Date(services.clock.now()).toISOString(),
      durationMs: 0,
      sandbox: null,
      pressure: null,
    };
  };

  const considerStopping = (armId: string) => {
    const arm = state.get(armId);
    if (!arm || arm.stoppedBy || rule.kind === 'fixed') return;
    // A rule's error rates hold for decided attempts only: with any attempt undecided the arm runs in full.
    if ((arm.verdicts.UNKNOWN ?? 0) + (arm.verdicts.DISPUTED ?? 0) > 0) return;
    const trials = arm.records.length;
    const successes = arm.verdicts.PASS ?? 0;
    const decision = stoppingDecision(rule, successes, trials);
    // PARTIAL rests on the share meeting every required criterion: when full passes are settled short of PASS, the
    // arm runs on until that share is settled too, so stopping never changes the arm's verdict.
    const required = successes + (arm.verdicts.PARTIAL ?? 0);
    const requiredSettled =
      decision === 'pass' || required === successes || stoppingDecision(rule, required, trials) !== 'continue';
    if (decision !== 'continue' && requiredSettled && trials < suite.repeat.n)
      arm.stoppedBy = { afterAttempts: trials, decision };
  };

  const watchWindow = outsideWindow(plan.subject);
  const outside =
    services.root !== undefined && watchWindow !== null
      ? new OutsideWatch(
          defaultOutsideRoots(services.root, services.reportDir ? [services.reportDir] : []),
          watchWindow,
        )
      : null;
  const stream = plan.holdout && !plan.holdout.revealed ? null : (services.attempts ?? null);
  const amendments = new Map<string, (record: AttemptRecord) => AttemptRecord>();
  let progress: TrialProgressSnapshots | undefined;
  // A lane hands its attempt to judging once observed and starts its next at once, when nothing decided before an
  // attempt starts reads the judgments of those before it: a fixed number of attempts, no spending limit, and more
  // than one lane (one lane runs one thing at a time, as declared). A subject waiting on I/O then waits again without
  // queueing behind the judging and writing of every attempt that finished with it (see JudgingTurns).
  const concurrency = Math.min(suite.repeat.concurrency, schedule.length);
  // Room for two judgments a lane: with one, lanes whose 20 ms waits ended together waited for room behind the turns
  // of the judgments before theirs in 9–17% of their attempts (50 lanes, 1,000 attempts).
  const judging =
    concurrency > 1 && rule.kind === 'fixed' && !meter && !runGate ? new JudgingTurns(2 * concurrency) : null;
  /** A finished attempt counted in its arm. */
  const count = (armId: string, arm: ArmState, record: AttemptRecord) => {
    arm.records.push(stream ? stream.add(record) : record);
    arm.verdicts[record.verdict] = (arm.verdicts[record.verdict] ?? 0) + 1;
    considerStopping(armId);
    if (services.onProgress) {
      progress ??= new TrialProgressSnapshots(suite, describeRule(rule), state);
      services.onProgress(progress.after(armId, arm));
    }
  };
  /** Whether the run's interruption stopped this attempt part-way: not a finished attempt, so neither counted nor kept. */
  const stoppedPartWay = (slot: AttemptSlot, arm: ArmState, key: string): boolean => {
    const { signal } = services;
    if (!signal?.aborted) return false;
    order.splice(order.indexOf(key), 1);
    cut(slot, arm, `${describeInterruption(signal.reason)} while this attempt ran; it was stopped`);
    return true;
  };
  let next = 0;
  const turns = new LoopTurns(TURN_EVERY_MS);
  const worker = async () => {
    while (next < schedule.length) {
      const turn = turns.due();
      if (turn) {
        await turn;
        if (next >= schedule.length) break;
      }
      const slot = schedule.at(next++);
      const arm = state.get(slot.arm);
      if (!arm) continue;
      // An arm its own rule ended is complete whether or not the run is cut short afterwards.
      if (arm.stoppedBy) {
        noteSkipped(slot, stoppedReason(arm.stoppedBy));
        continue;
      }
      if (services.signal?.aborted) {
        cut(slot, arm, 'the run was cut short before this attempt started');
        continue;
      }
      const sequence = order.length;
      const key = `${slot.arm}#${slot.index}`;
      order.push(key);
      const sealedCase = plan.sealed[slot.arm];
      const armCase = caseOf(slot.arm);
      if (!armCase) continue;
      // An attempt that cannot run (a dependency unavailable, a spending limit reached) is recorded as not run.
      const blocker = blocking[0];
      const breaker = broken[0];
      let notRunnable: AttemptRecord | null = null;
      if (blocker)
        notRunnable = unrun(
          slot,
          armCase,
          sequence,
          'blocked',
          `dependency ${blocker.dependency.name}`,
          blocker.detail,
        );
      else if (breaker)
        notRunnable = unrun(
          slot,
          armCase,
          sequence,
          'harness_error',
          `dependency ${breaker.dependency.name}`,
          breaker.detail,
        );
      else if (meter?.spent()) {
        meter.block(slot.arm);
        notRunnable = unrun(slot, armCase, sequence, 'blocked', 'budget', meter.spent() ?? '');
      } else if (runGate && (await runGate.spent()) !== null) {
        await runGate.block(slot.arm, slot.index);
        notRunnable = unrun(slot, armCase, sequence, 'blocked', 'run budget', (await runGate.spent()) ?? '');
      }
      if (notRunnable) {
        count(slot.arm, arm, notRunnable);
        continue;
      }
      const setup: AttemptSetup = {
        case: armCase,
        rubric,
        evaluators: plan.evaluators,
        subject: plan.subject,
        tools: plan.tools,
        clock: services.clock,
        expect: services.expect,
        ...(services.softAssertions ? { softAssertions: services.softAssertions } : {}),
        fixtures: plan.fixtures[slot.arm] ?? null,
        observers: plan.observers,
        keepFailedSandbox: plan.keepFailedSandboxes,
        claimExtractors: plan.claimExtractors,
        sealedTexts: sealedCase ? sealedTexts(sealedCase) : [],
        ...(services.signal ? { signal: services.signal } : {}),
      };
      outside?.started(key);
      // The attempt's watches end once its subject has returned: for a handed-off attempt at the hand-off, not when it
      // is judged, or the writes outside the workspace of its lane's next attempt, and errors no async context ties to
      // an attempt, would be taken as this one's too.
      let returned = false;
      const ended = () => {
        if (returned) return;
        returned = true;
        stray.ended(key);
        outside?.ended(key);
      };
      if (judging) {
        let handedOff = false;
        let observed: (admitted: Promise<void>) => void = () => {};
        const admitted = new Promise<void>((resolve) => {
          observed = resolve;
        });
        const judged = stray.within(key, () =>
          runAttempt(slot, sequence, {
            ...setup,
            handOff: () => {
              handedOff = true;
              ended();
              const room = judging.admit();
              observed(room);
              return room.then(() => judging.turn());
            },
          }),
        );
        try {
          // Settles once the attempt is handed off and has room to be judged, or with its record if there was no
          // Observation to judge.
          await Promise.race([admitted, judged]);
        } catch (error) {
          ended();
          throw error;
        }
        if (!handedOff) {
          ended();
          if (!stoppedPartWay(slot, arm, key)) count(slot.arm, arm, await judged);
          continue;
        }
        judging.keep(
          judged.then(
            (record) => {
              ended();
              if (!stoppedPartWay(slot, arm, key)) count(slot.arm, arm, record);
            },
            (error: unknown) => {
              ended();
              throw error;
            },
          ),
        );
        continue;
      }
      let record: AttemptRecord;
      // try…finally rather than Promise#finally, which makes three promises more for every attempt.
      try {
        record = await stray.within(key, () => runAttempt(slot, sequence, setup));
      } finally {
        ended();
      }
      if (stoppedPartWay(slot, arm, key)) continue;
      meter?.spend(record);
      // Awaited only when there is a gate: `await undefined` makes a promise for every attempt.
      if (runGate) await runGate.spend(record);
      count(slot.arm, arm, record);
    }
  };
  // Listening to the process's uncaught errors from here until the attempts are done, whatever ends them: a trial that
  // failed (its attempts file could not be written, say) and kept listening would leave every later uncaught error of
  // the process its own, and a host without listeners of its own (riddle/core in plain Node) would never crash on one.
  const stray = new StrayErrors(plan.subject.secrets);
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    await judging?.settled();
    // A timer or an unawaited promise may fail just after its attempt returned: let it surface (while the last look
    // outside the workspaces comes through), then mark the attempts whose subject raised errors outside the awaited
    // call.
    await Promise.all([outside?.finish(), new Promise((resolve) => setTimeout(resolve, 1))]);
  } finally {
    outside?.close();
    stray.close();
  }
  // Most trials have no stray errors: then no attempt is looked up (a trial of 100,000 attempts would copy its list).
  for (const arm of stray.anyAttributed() ? state.values() : []) {
    arm.records = arm.records.map((record) => {
      const armCase = caseOf(record.arm);
      const errors = stray.of(`${record.arm}#${record.index}`);
      const marked = armCase ? withStrayErrors(record, errors, { case: armCase, rubric }) : record;
      if (marked !== record) {
        // The written attempt is amended alike when the stream ends.
        if (armCase && stream)
          amendments.set(`${record.arm}#${record.index}`, (full) =>
            withStrayErrors(full, errors, { case: armCase, rubric }),
          );
        arm.verdicts[record.verdict] = (arm.verdicts[record.verdict] ?? 1) - 1;
        arm.verdicts[marked.verdict] = (arm.verdicts[marked.verdict] ?? 0) + 1;
      }
      return marked;
    });
  }

  const attempts = [...state.values()].flatMap((s) => s.records).sort((a, b) => a.sequence - b.sequence);
  const { arms, judgment } = decideTrial({
    suite,
    rubric,
    attempts,
    notRun: (arm) => notRun.get(arm) ?? { count: 0, reason: '' },
    blocked: blocking[0] ? `${blocking[0].dependency.name}: ${blocking[0].detail}` : null,
    cutShort: (arm) => cutShort.get(arm) ?? 0,
    strayErrors: stray.unattributed,
  });
  const stopping = [
    ...[...state.entries()].flatMap(([arm, s]) =>
      s.stoppedBy
        ? [{ arm, afterAttempts: s.stoppedBy.afterAttempts, decision: s.stoppedBy.decision, rule: describeRule(rule) }]
        : [],
    ),
    ...(meter?.stops() ?? []),
    ...(runGate?.stops() ?? []),
  ];
  return assembleOutcome({
    plan,
    compositionSuite: plan.subject.composition ?? null,
    attempts,
    streamed: stream?.finish(amendments) ?? null,
    arms,
    judgment,
    execution: {
      startedAt,
      finishedAt: new Date(services.clock.now()).toISOString(),
      seed: suite.repeat.seed,
      order,
      stopping,
      independentAttempts: plan.environment.independentAttempts,
      rejudgedFrom: null,
      incomplete: services.signal?.aborted ? { reason: describeInterruption(services.signal.reason) } : null,
      holdout: plan.holdout ? { access: plan.holdout.access, budget: plan.holdout.budget } : null,
      budget: meter?.record() ?? null,
      providers: plan.providers ? await plan.providers.record() : null,
      strayErrors: [...stray.unattributed],
      outsideWrites: outside?.record() ?? null,
    },
  });
}
