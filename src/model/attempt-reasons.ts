import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { AttemptStatus } from './vocabulary.js';

const Names = lazySchema(() => z.array(z.string()));

/**
 * Which branch of the attempt rule (aggregate/attempt-verdict, first match wins) decided an attempt, with what it
 * decided on. The sentence shown to people is rendered from it by report/reasons.ts.
 */
export const AttemptReason = lazySchema(() =>
  z.discriminatedUnion('kind', [
    /** Rule 1: the attempt did not complete; its error, when it has one. */
    z.object({
      kind: z.literal('not-completed'),
      status: AttemptStatus.exclude(['completed']),
      error: z.object({ where: z.string(), message: z.string() }).nullable(),
    }),
    /** Rule 2: the first claim the receipts contradict, with the check's note. */
    z.object({ kind: z.literal('contradicted'), claim: z.string(), note: z.string() }),
    /** Rule 3: required expected criteria unmet and forbidden criteria met. */
    z.object({ kind: z.literal('failed'), unmet: Names, met: Names }),
    /** Rule 4: expected or forbidden criteria DISPUTED, each with its result's reason. */
    z.object({
      kind: z.literal('disputed'),
      criteria: z.array(z.object({ criterion: z.string(), reason: z.string() })),
    }),
    /** Rule 5: expected or forbidden criteria without covering evidence; `reason` null when no result was recorded. */
    z.object({
      kind: z.literal('unknown'),
      criteria: z.array(z.object({ criterion: z.string(), reason: z.string().nullable() })),
    }),
    /** Rule 6: optional expected criteria unmet. */
    z.object({ kind: z.literal('partial'), unmet: Names }),
    /** Rule 7: every declared (expected or forbidden) criterion as expected. */
    z.object({ kind: z.literal('passed'), declared: z.number().int().min(0) }),
  ]),
);
export type AttemptReason = z.infer<typeof AttemptReason>;
