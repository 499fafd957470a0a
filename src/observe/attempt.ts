import type { Case, Clock, JsonValue, Observation, Receipt, Round } from '../model/index.js';
import type { Subject, ToolDefinition } from './subject.js';
import { createToolGateway } from './tool-gateway.js';

export interface AttemptPlan {
  arm: string;
  /** 0-based repetition index within the arm. */
  attempt: number;
  seed: number;
  case: Case;
  subject: Subject;
  tools: readonly ToolDefinition[];
  clock: Clock;
}

/** What observing one attempt gave: a status and, when the subject ran, its retained Observation. */
export interface ObservedAttempt {
  status: 'completed' | 'subject_error' | 'harness_error';
  observation: Observation | null;
  error: { where: string; message: string } | null;
}

class BudgetExceeded extends Error {}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Run one attempt of one arm and record what the subject did, round by round, before anything judges it. A
 * throwing subject or an exhausted budget is a `subject_error` with whatever was observed up to then.
 */
export async function observeAttempt(plan: AttemptPlan): Promise<ObservedAttempt> {
  const started = plan.clock.now();
  const elapsedMs = () => plan.clock.now() - started;
  const gateway = createToolGateway({ tools: plan.tools, maxEffect: plan.case.effectClass, workspace: null, elapsedMs });
  const receipts: Receipt[] = [];
  const rounds: Round[] = [];
  const inputs: JsonValue[] = [plan.case.input, ...plan.case.followUps].slice(0, plan.case.stop.maxRounds);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new BudgetExceeded(`exceeded the case's budget of ${plan.case.stop.timeoutMs} ms`));
    }, plan.case.stop.timeoutMs);
  });
  const observation = (): Observation => ({
    rounds,
    exit: null,
    files: [],
    toolRequests: [...gateway.requests],
    receipts,
    rows: [],
    resources: { wallMs: elapsedMs(), cpuMs: null, peakRssBytes: null },
  });
  try {
    for (const [i, input] of inputs.entries()) {
      const round = i + 1;
      gateway.setRound(round);
      const roundStarted = plan.clock.now();
      const response = await Promise.race([
        plan.subject.respond(input, {
          arm: plan.arm,
          attempt: plan.attempt,
          round,
          seed: plan.seed,
          workspace: null,
          signal: controller.signal,
          history: [...rounds],
          tools: gateway,
          recordReceipt: (receipt) => receipts.push(receipt),
        }),
        budget,
      ]);
      rounds.push({
        index: round,
        input,
        reply: response.reply,
        claims: (response.claims ?? []).map((claim) => ({ ...claim, source: 'structured' as const, round })),
        durationMs: plan.clock.now() - roundStarted,
      });
    }
    return { status: 'completed', observation: observation(), error: null };
  } catch (error) {
    return { status: 'subject_error', observation: observation(), error: { where: `subject ${plan.subject.name}`, message: message(error) } };
  } finally {
    clearTimeout(timer);
  }
}
