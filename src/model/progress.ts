import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { Verdict } from './vocabulary.js';

/**
 * A running trial's progress, sent from the test worker to the reporter while attempts run. Transient: never part
 * of an Outcome, so it has no version of its own; a reader drops a snapshot that does not parse.
 */
export const TrialProgress = lazySchema(() =>
  z.object({
    trial: z.string(),
    /** The declared stopping rule, e.g. `curtail n=20`. */
    rule: z.string(),
    arms: z.array(
      z.object({
        arm: z.string(),
        /** Attempts finished so far, and the most the arm may run. */
        done: z.number().int(),
        planned: z.number().int(),
        verdicts: z.partialRecord(Verdict, z.number().int()),
        /** What the stopping rule decided for the arm, once it did; null while the arm is still running. */
        stopped: z.enum(['pass', 'fail', 'inconclusive']).nullable(),
      }),
    ),
  }),
);
export type TrialProgress = z.infer<typeof TrialProgress>;
