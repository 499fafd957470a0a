import { z } from 'zod';
import { TestOutcome, Verdict } from './vocabulary.js';

export const RUN_SCHEMA = 'riddle.run/1';

export const RunIndex = z.object({
  schema: z.literal(RUN_SCHEMA),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  versions: z.object({ riddle: z.string(), vitest: z.string(), node: z.string() }),
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
  /** Trials whose test did not report an Outcome (cut short, filtered mid-way, crashed worker). */
  missing: z.array(z.object({ name: z.string(), file: z.string(), reason: z.string() })),
});
export type RunIndex = z.infer<typeof RunIndex>;
