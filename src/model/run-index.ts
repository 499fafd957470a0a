import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { BudgetRecord } from './spending.js';
import { TestOutcome, Verdict } from './vocabulary.js';

export const RUN_SCHEMA = 'riddle.run/3';

export const RunIndex = lazySchema(() =>
  z.object({
    schema: z.literal(RUN_SCHEMA),
    runId: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    versions: z.object({ riddle: z.string(), vitest: z.string(), node: z.string() }),
    /**
     * True when the run left a declared trial without a complete Outcome: it was interrupted, a trial is missing, or
     * an Outcome was cut short. The report folder's latest pointer never moves to an incomplete run.
     */
    incomplete: z.boolean(),
    /** What interrupted the run (a signal such as SIGINT, or a cancelled run), or null when it ran to its end. */
    interruptedBy: z.string().nullable(),
    trials: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        file: z.string(),
        verdict: Verdict,
        testOutcome: TestOutcome,
        outcomeId: z.string(),
        /** Outcome file, relative to this index. */
        outcome: z.string(),
      }),
    ),
    /** Declared trials without an Outcome (interrupted, crashed or killed worker, failed before the Outcome), each with why. */
    missing: z.array(z.object({ name: z.string(), file: z.string(), reason: z.string() })),
    /**
     * The run-wide budget shared by all its trials (the riddle plugin's `runBudget`): its limits, what the whole run
     * spent, whether it was spent and how many attempts it blocked; null when the run declared none.
     */
    runBudget: BudgetRecord.nullable(),
  }),
);
export type RunIndex = z.infer<typeof RunIndex>;

/**
 * Run index `riddle.run/1` → `riddle.run/2`: a v1 run is incomplete exactly when it listed a missing trial (v1 had
 * no interruption handling, so none was recorded as interrupted).
 */
export function runIndexV1toV2(index: Record<string, unknown>): Record<string, unknown> {
  const missing = Array.isArray(index.missing) ? index.missing : [];
  return { ...index, schema: 'riddle.run/2', incomplete: missing.length > 0, interruptedBy: null };
}

/** Run index `riddle.run/2` → `riddle.run/3`: runs before the run-wide budget declared none. */
export function runIndexV2toV3(index: Record<string, unknown>): Record<string, unknown> {
  return { ...index, schema: RUN_SCHEMA, runBudget: null };
}
