import {
  EffectClass,
  fingerprint,
  type JsonValue,
  type RecordedConversation,
  type SubjectIdentity,
} from '../model/index.js';
import { fn, having, nonEmpty, oneOf, optional, optionsChecker, recordOf } from '../model/options-check.js';
import type { Subject, SubjectResponse, ToolDefinition } from './subject.js';

export interface TrajectorySubjectOptions {
  name: string;
  /** The revision the Outcome binds to (the recording's source); omitted: the content fingerprint of the runs. */
  revision?: string;
  /** Recorded conversations per Case id: attempt i of a Case replays its i-th recording. */
  runs: ReadonlyMap<string, readonly RecordedConversation[]>;
  /** The effect class of every tool the recordings call (reads `read`, writes `write`…): requests are admitted by it. */
  tools: Readonly<Record<string, EffectClass>>;
  /** Which recorded results are the tool's failure (τ-bench writes `Error: …`); default: none is. */
  failed?: (result: string) => boolean;
  /**
   * Declared, never assumed: `recorded-samples` when each recording is an independent run of the original agent
   * (a benchmark's repeated trials), `not-independent` when the recordings are copies of one run.
   */
  independence: 'recorded-samples' | 'not-independent';
}

const checkOptions = optionsChecker<TrajectorySubjectOptions>(
  'trajectorySubject',
  {
    name: nonEmpty,
    revision: optional(nonEmpty),
    runs: having('a Map of recorded conversations by Case id', ['get', 'values']),
    tools: recordOf(oneOf(EffectClass.options), 'an object of effect classes by tool name'),
    failed: optional(fn("a function (recorded result) => whether it is the tool's failure")),
    independence: oneOf(['recorded-samples', 'not-independent']),
  },
  'name',
);

/** A trajectory subject and the tools its recordings call, to declare together on the trial. */
export interface RecordedTrajectories {
  subject: Subject;
  tools: ToolDefinition[];
}

/** The input of rounds 2…n of a Case replayed from recordings: what the user said there is recorded per attempt. */
export function recordedFollowUps(rounds: number): JsonValue[] {
  return Array.from({ length: Math.max(0, rounds - 1) }, (_, i) => ({ recordedUserTurn: i + 2 }));
}

/**
 * The rounds an attempt plays: a recording's trailing user turns the agent never answered (a simulated user's
 * closing "###STOP###") are left out, so the attempt's last reply is the agent's final one. At least one round.
 */
function answeredRounds(run: RecordedConversation): RecordedConversation['rounds'] {
  let end = run.rounds.length;
  while (end > 1 && run.rounds[end - 1]?.reply === null && run.rounds[end - 1]?.toolCalls.length === 0) end--;
  return run.rounds.slice(0, end);
}

/** The most rounds any recording of a Case plays: declare that many rounds (`recordedFollowUps`) on the Case. */
export function recordedRounds(runs: readonly RecordedConversation[]): number {
  return Math.max(1, ...runs.map((run) => answeredRounds(run).length));
}

interface PendingResult {
  result: string | null;
  failed: boolean;
}

/**
 * Recorded agent conversations replayed as attempts: round r plays the recording's r-th user turn, re-issuing every
 * tool call through the attempt's tool gateway, so each is recorded as a request with its declared effect class,
 * admission, arguments and the recorded result (or its failure); the round's reply is the agent's text. Attempt i of
 * a Case replays its i-th recording; the attempt ends with the agent's last answered turn. Its identity kind is `replay`; whether the
 * attempts are independent samples is declared (`independence`), so intervals say what they describe.
 */
export function trajectorySubject(options: TrajectorySubjectOptions): RecordedTrajectories {
  checkOptions(options);
  const undeclared = new Set<string>();
  for (const runs of options.runs.values())
    for (const run of runs)
      for (const round of run.rounds)
        for (const call of round.toolCalls) if (!(call.tool in options.tools)) undeclared.add(call.tool);
  if (undeclared.size > 0) {
    throw new TypeError(
      `trajectorySubject("${options.name}"): the recordings call ${[...undeclared].sort().join(', ')}; declare the effect class of each in \`tools\``,
    );
  }
  const failed = options.failed ?? (() => false);
  // The recorded result of the call in flight, per attempt: the gateway hands a tool the attempt's abort signal,
  // which is unique to the attempt, and an attempt makes its calls one at a time.
  const pending = new WeakMap<AbortSignal, PendingResult>();
  const tools: ToolDefinition[] = Object.entries(options.tools)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, effect]) => ({
      name,
      description: `${name}, replayed from the recording`,
      effect,
      inputSchema: { type: 'object' },
      run(_args, context) {
        const served = pending.get(context.signal);
        if (served === undefined) throw new Error(`${name}: no recorded call in flight`);
        if (served.result === null) throw new Error('no result recorded');
        if (served.failed) throw new Error(served.result);
        return served.result;
      },
    }));
  const sorted = [...options.runs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const identity: SubjectIdentity =
    options.revision === undefined
      ? { kind: 'replay', name: options.name, revision: fingerprint(sorted), revisionSource: 'content' }
      : { kind: 'replay', name: options.name, revision: options.revision, revisionSource: 'declared' };
  const subject: Subject = {
    kind: 'replay',
    name: options.name,
    independence: options.independence,
    identify: async () => identity,
    async respond(_input, context): Promise<SubjectResponse> {
      const run = options.runs.get(context.arm)?.[context.attempt];
      if (run === undefined)
        throw new Error(`${options.name}: no recording for attempt ${context.attempt} of case "${context.arm}"`);
      const rounds = answeredRounds(run);
      const round = rounds[context.round - 1];
      if (round === undefined)
        throw new Error(`${options.name}: the recording of case "${context.arm}" has no round ${context.round}`);
      const last = context.round === rounds.length;
      if (!last && context.round === context.stop.maxRounds) {
        throw new Error(
          `${options.name}: the recording of case "${context.arm}" has ${rounds.length} rounds but the Case allows ${context.stop.maxRounds}; declare followUps: recordedFollowUps(recordedRounds(runs))`,
        );
      }
      const notes: string[] = last
        ? run.rounds
            .slice(rounds.length)
            .map((unanswered) => `the recording ends with a user turn the agent did not answer: ${unanswered.input}`)
        : [];
      for (const call of round.toolCalls) {
        pending.set(context.signal, {
          result: call.result,
          failed: call.result !== null && failed(call.result),
        });
        try {
          await context.tools.call(call.tool, call.arguments);
        } catch {
          // A failed or denied request is evidence, kept by the gateway; the recording goes on as it did.
        } finally {
          pending.delete(context.signal);
        }
      }
      if (round.input === null) notes.push(`round ${context.round}: the agent spoke before any user message`);
      return {
        reply: round.reply,
        recordedInput: round.input,
        last,
        ...(notes.length > 0 ? { notes } : {}),
      };
    },
  };
  return { subject, tools };
}
