import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  fingerprint,
  REGISTRATIONS_SCHEMA,
  Registrations,
  type DeclaredPolicy,
  type RegistrationCheck,
  type Rubric,
  type TrialSuite,
} from '../model/index.js';
import { withFolderLock } from './folder-lock.js';

/** Where a project's registrations live, relative to its root: meant to be committed, like snapshot files. */
export const REGISTRATIONS_FILE = path.join('.riddle', 'registrations.json');

/** The policy a trial declares before it sees results (concurrency aside: it changes no result). */
export function declaredPolicy(suite: TrialSuite, rubric: Rubric): DeclaredPolicy {
  return {
    n: suite.repeat.n,
    order: suite.repeat.order,
    seed: suite.repeat.seed,
    stop: { ...suite.repeat.stop },
    threshold: { ...rubric.threshold },
    missingEvidence: rubric.missingEvidence,
    aggregation: { ...suite.aggregation },
  };
}

/**
 * The registrations last read or written per file, with the file's identity at that moment (inode, size, change
 * times): every trial checks the file, and parsing it again each time cost milliseconds per trial, growing with the
 * number of trials registered. Every writer replaces the file by a rename, so a change by another worker or by hand
 * shows as a new identity and is read afresh.
 */
const known = new Map<string, { stamp: string; registrations: Registrations }>();

function stampOf(file: string): string | null {
  const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : null;
}

function read(file: string): Registrations {
  const stamp = stampOf(file);
  const cached = known.get(file);
  if (stamp !== null && cached?.stamp === stamp) return cached.registrations;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { schema: REGISTRATIONS_SCHEMA, trials: {} };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`riddle: ${file} is not valid JSON; restore it from version control`);
  }
  const parsed = Registrations.safeParse(data);
  if (!parsed.success) {
    throw new Error(
      `riddle: ${file} is not a registrations file (${parsed.error.issues[0]?.message ?? 'invalid'}); restore it from version control`,
    );
  }
  if (stamp !== null) known.set(file, { stamp, registrations: parsed.data });
  return parsed.data;
}

/** Plain JSON with every null-valued object field dropped (array elements are kept as they are, nulls too). */
function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNullFields(v)]),
  );
}

/**
 * The fingerprint a policy is registered by. A null field and an omitted one both say "not declared" (records store
 * null since riddle.trial-suite/3, earlier ones omitted the key), so the fingerprint reads them alike: a policy
 * registered by an earlier version is not reported as changed when only its record's convention moved.
 */
function policyFingerprint(policy: DeclaredPolicy): string {
  return fingerprint(withoutNullFields(policy));
}

/**
 * Compare a trial's declared policy with the one registered at its first run. `accept` (RIDDLE_ACCEPT_POLICY=1)
 * takes a changed policy on purpose, as `-u` does for snapshots; without it a change is reported, never silent.
 */
export function checkRegistration(
  root: string,
  trialId: string,
  policy: DeclaredPolicy,
  accept: boolean,
): RegistrationCheck {
  const current = policyFingerprint(policy);
  const registered = read(path.join(root, REGISTRATIONS_FILE)).trials[trialId];
  if (!registered) return { status: 'registered', policy: current, registeredPolicy: null, earlierOutcome: null };
  const base = { policy: current, registeredPolicy: registered.policy, earlierOutcome: registered.outcome };
  // A registration fingerprinted before nulls were dropped (its policy is the plain fingerprint of what it stored, an
  // undeclared summary as `summary: null`) is compared by that stored policy, read the same way.
  const plainlyRegistered = registered.policy === fingerprint(registered.declared);
  if (registered.policy === current || (plainlyRegistered && policyFingerprint(registered.declared) === current))
    return { status: 'unchanged', ...base };
  return { status: accept ? 'accepted' : 'changed', ...base };
}

/**
 * Register a trial's policy with the Outcome of the run that first saw results under it: at a first run, or when a
 * changed policy was accepted. A registration another run made meanwhile for the same policy is kept.
 */
export async function recordRegistration(
  root: string,
  trialId: string,
  policy: DeclaredPolicy,
  check: RegistrationCheck,
  outcomeId: string,
): Promise<void> {
  if (check.status !== 'registered' && check.status !== 'accepted') return;
  const file = path.join(root, REGISTRATIONS_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  await withFolderLock(path.dirname(file), 'registrations', () => {
    const registrations = read(file);
    const existing = registrations.trials[trialId];
    if (existing && existing.policy === check.policy) return;
    if (existing && check.status === 'registered') return;
    // A new object: the one read may be the cached one, which stays as it was until the file is replaced.
    const trials = {
      ...registrations.trials,
      [trialId]: { policy: check.policy, declared: policy, outcome: outcomeId },
    };
    const sorted = Object.fromEntries(Object.entries(trials).sort(([a], [b]) => (a < b ? -1 : 1)));
    const written: Registrations = { ...registrations, trials: sorted };
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(written, null, 2)}\n`);
    renameSync(temp, file);
    const stamp = stampOf(file);
    if (stamp !== null) known.set(file, { stamp, registrations: written });
  });
}
