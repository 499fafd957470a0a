import { z } from 'zod';
import { Finding } from './finding.js';

export const FINDINGS_SCHEMA = 'riddle.findings/1';

/** A finding as returned from a run: the record, with the trial and Outcome it came from. */
export const ReturnedFinding = Finding.extend({
  trial: z.object({ id: z.string(), name: z.string(), file: z.string() }),
  /** Id of the Outcome whose attempts and evidence the finding references. */
  outcome: z.string(),
});
export type ReturnedFinding = z.infer<typeof ReturnedFinding>;

/**
 * A run's findings (`findings.json` in the run folder), grouped by the owner each returns to: the owning team of
 * the composition it is about, else its boundary (subject, harness, evaluator, environment).
 */
export const FindingsFile = z.object({
  schema: z.literal(FINDINGS_SCHEMA),
  /** The run the findings came from; null when read from Outcomes outside a run folder. */
  runId: z.string().nullable(),
  owners: z.array(z.object({ owner: z.string(), findings: z.array(ReturnedFinding) })),
  /** Findings in all owners. */
  total: z.number().int().min(0),
});
export type FindingsFile = z.infer<typeof FindingsFile>;

/** The owner a finding returns to: its composition's owning team, else its boundary. */
export const returnsTo = (finding: Pick<Finding, 'owner' | 'composition'>): string =>
  finding.composition?.owner ?? finding.owner;
