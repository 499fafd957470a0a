import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { CapabilityClaim } from './capability.js';
import { Finding } from './finding.js';

export const FINDINGS_SCHEMA = 'riddle.findings/2';

/** Where a returned finding or claim came from: its trial, and the id of the Outcome its figures are in. */
const Origin = lazySchema(() =>
  z.object({
    trial: z.object({ id: z.string(), name: z.string(), file: z.string() }),
    /** Id of the Outcome whose attempts and evidence the finding (or figures the claim) references. */
    outcome: z.string(),
  }),
);

/** A finding as returned from a run: the record, with the trial and Outcome it came from. */
export const ReturnedFinding = lazySchema(() => Finding.extend(Origin.shape));
export type ReturnedFinding = z.infer<typeof ReturnedFinding>;

/**
 * A capability claim as exported from a run: the record with the trial and the id of the Outcome it was made in
 * (inside that Outcome the claim carries no id, since the id fingerprints the claim).
 */
export const ReturnedClaim = lazySchema(() => z.intersection(CapabilityClaim, Origin));
export type ReturnedClaim = z.infer<typeof ReturnedClaim>;

/**
 * A run's findings (`findings.json` in the run folder), grouped by the owner each returns to: the owning team of
 * the composition it is about, else its boundary (subject, harness, evaluator, environment); and the run's capability
 * claims.
 */
export const FindingsFile = lazySchema(() =>
  z.object({
    schema: z.literal(FINDINGS_SCHEMA),
    /** The run the findings came from; null when read from Outcomes outside a run folder. */
    runId: z.string().nullable(),
    owners: z.array(z.object({ owner: z.string(), findings: z.array(ReturnedFinding) })),
    /** Findings in all owners. */
    total: z.number().int().min(0),
    /**
     * The healthy Outcomes' capability claims, in the order of their Outcomes; null in a file written before claims were
     * exported (`riddle.findings/1`: the run's Outcomes hold them).
     */
    claims: z.array(ReturnedClaim).nullable(),
  }),
);
export type FindingsFile = z.infer<typeof FindingsFile>;

/** Findings file `riddle.findings/1` → `/2`: it did not export claims (null: not recorded, rather than none). */
export function findingsV1toV2(file: Record<string, unknown>): Record<string, unknown> {
  return { ...file, schema: 'riddle.findings/2', claims: null };
}

/** The owner a finding returns to: its composition's owning team, else its boundary. */
export const returnsTo = (finding: Pick<Finding, 'owner' | 'composition'>): string =>
  finding.composition?.owner ?? finding.owner;
