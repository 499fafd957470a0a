import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { EffectClass } from './vocabulary.js';

export const ENVIRONMENT_SCHEMA = 'riddle.environment/2';

export const SubjectIdentity = lazySchema(() =>
  z.object({
    kind: z.enum(['function', 'command', 'http', 'replay']),
    name: z.string().min(1),
    /** Immutable revision the Outcome binds to. */
    revision: z.string().min(1),
    /** Where the revision came from: declared by the user, a git commit (+ dirty flag), or a package version. */
    revisionSource: z.enum(['declared', 'git', 'package', 'content']),
  }),
);
export type SubjectIdentity = z.infer<typeof SubjectIdentity>;

export const Environment = lazySchema(() =>
  z.object({
    schema: z.literal(ENVIRONMENT_SCHEMA),
    subject: SubjectIdentity,
    /** Declared prompts and tool schemas, by fingerprint only. */
    prompts: z.array(z.object({ name: z.string(), fingerprint: z.string() })),
    tools: z.array(z.object({ name: z.string(), effect: EffectClass, fingerprint: z.string() })),
    dependencies: z.array(z.object({ name: z.string(), kind: z.string(), available: z.boolean(), detail: z.string() })),
    runtime: z.object({
      node: z.string(),
      os: z.string(),
      arch: z.string(),
      cpuModel: z.string(),
      cpuCount: z.number().int(),
      memoryBytes: z.number(),
    }),
    harness: z.object({ riddle: z.string(), vitest: z.string() }),
    project: z.object({
      gitCommit: z.string().nullable(),
      dirty: z.boolean().nullable(),
      lockfileSha256: z.string().nullable(),
    }),
    /** Allowlisted environment variables; values of anything secret-looking are replaced by `[redacted]`. */
    variables: z.record(z.string(), z.string()),
    budgets: z.object({ timeoutMs: z.number(), maxOutputBytes: z.number(), maxRounds: z.number() }),
    effectPolicy: z.object({ maxEffect: EffectClass }),
    /**
     * The OS sandbox command subjects ran in (`engine`, e.g. bubblewrap) and whether it kept the network for Cases whose
     * effect class is external or above (`allow`) or never (`none`); null when the subject ran unisolated.
     */
    isolation: z.object({ engine: z.string(), network: z.enum(['none', 'allow']) }).nullable(),
    /** False when attempts are replayed or cached responses: they are then not independent samples. */
    independentAttempts: z.boolean(),
    notes: z.array(z.string()),
  }),
);
export type Environment = z.infer<typeof Environment>;
