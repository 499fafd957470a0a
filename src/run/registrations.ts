import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  jsonDifferences,
  fingerprint,
  REGISTRATIONS_SCHEMA,
  Registration,
  type DeclaredPolicy,
  type JsonValue,
  type PolicyChange,
  type RegistrationCheck,
  type Rubric,
  type TrialSuite,
} from '../model/index.js';
import { writeAtExit } from './exit-writes.js';
import { processAlive, withFolderLock, withFolderLockSync } from './folder-lock.js';
import { seldomParsed } from './seldom-parsed.js';

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
 * A registrations file as read: its entries as written, each checked against the schema when first asked for. A
 * project's file holds every trial's registration and every test file's worker reads it, while a worker's trials ask
 * for a few: checking all of them cost about 30 µs an entry in each worker (a second and more per worker in a
 * project of tens of thousands of trials).
 */
interface RegistrationsRead {
  file: string;
  entries: Readonly<Record<string, unknown>>;
  checked: Map<string, Registration>;
}

/** The file's shape, its entries aside (each checked when asked for: `entryOf`). */
const RegistrationsEnvelope = z.object({
  schema: z.literal(REGISTRATIONS_SCHEMA),
  trials: z.record(z.string(), z.unknown()),
});

/**
 * The registrations last read or written per file, with the file's identity at that moment (inode, size, change
 * times): every trial checks the file, and parsing it again each time cost milliseconds per trial, growing with the
 * number of trials registered. Every writer replaces the file by a rename, so a change by another worker or by hand
 * shows as a new identity and is read afresh.
 */
const known = new Map<string, { stamp: string; registrations: RegistrationsRead }>();

function stampOf(file: string): string | null {
  const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : null;
}

const notRegistrations = (file: string, why: string) =>
  new Error(`riddle: ${file} is not a registrations file (${why}); restore it from version control`);

function read(file: string): RegistrationsRead {
  const stamp = stampOf(file);
  const cached = known.get(file);
  if (stamp !== null && cached?.stamp === stamp) return cached.registrations;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { file, entries: {}, checked: new Map() };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`riddle: ${file} is not valid JSON; restore it from version control`);
  }
  const parsed = RegistrationsEnvelope.safeParse(data, seldomParsed(RegistrationsEnvelope));
  if (!parsed.success) throw notRegistrations(file, parsed.error.issues[0]?.message ?? 'invalid');
  const registrations = { file, entries: parsed.data.trials, checked: new Map<string, Registration>() };
  if (stamp !== null) known.set(file, { stamp, registrations });
  return registrations;
}

/** A trial's registration in a file as read, checked against the schema the first time it is asked for. */
function entryOf(registrations: RegistrationsRead, trialId: string): Registration | undefined {
  const checked = registrations.checked.get(trialId);
  if (checked) return checked;
  if (!Object.hasOwn(registrations.entries, trialId)) return undefined;
  const parsed = Registration.safeParse(registrations.entries[trialId], seldomParsed(Registration));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = [JSON.stringify(trialId), ...(issue?.path ?? []).map(String)].join('.');
    throw notRegistrations(registrations.file, `trials.${where}: ${issue?.message ?? 'invalid'}`);
  }
  registrations.checked.set(trialId, parsed.data);
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
 * takes a changed policy on purpose, as `-u` does for snapshots; without it a change is reported, never silent. A
 * registration this process made and has not written yet counts as registered.
 */
export function checkRegistration(
  root: string,
  trialId: string,
  policy: DeclaredPolicy,
  accept: boolean,
): RegistrationCheck {
  const current = policyFingerprint(policy);
  const file = path.join(root, REGISTRATIONS_FILE);
  if (!recovered.has(file)) {
    recovered.add(file);
    recoverJournals(file);
  }
  const registered = pending.get(file)?.get(trialId)?.entry ?? entryOf(read(file), trialId);
  if (!registered)
    return { status: 'registered', policy: current, registeredPolicy: null, earlierOutcome: null, changes: null };
  const base = {
    policy: current,
    registeredPolicy: registered.policy,
    earlierOutcome: registered.outcome,
    changes: null,
  };
  if (registered.policy === current) return { status: 'unchanged', ...base };
  // A registration fingerprinted before nulls were dropped (its policy is the plain fingerprint of what it stored, an
  // undeclared summary as `summary: null`) is compared by that stored policy, read the same way.
  const plainlyRegistered = registered.policy === fingerprint(registered.declared);
  if (plainlyRegistered && policyFingerprint(registered.declared) === current) return { status: 'unchanged', ...base };
  return {
    status: accept ? 'accepted' : 'changed',
    ...base,
    changes: policyChanges(withoutNullFields(registered.declared), withoutNullFields(policy)),
  };
}

/**
 * The fields of two declared policies (read with null fields dropped, as their fingerprints are) whose values differ,
 * by dotted path, leaves compared as canonical JSON: what the warning and the failing test name, so a reader sees
 * `n 44 → 20` rather than two fingerprints.
 */
export function policyChanges(registered: unknown, declared: unknown): PolicyChange[] {
  return jsonDifferences(registered, declared, { whole: '(policy)' }).map(({ path, a, b }) => ({
    field: path,
    registered: (a ?? null) as JsonValue,
    declared: (b ?? null) as JsonValue,
  }));
}

/** A registration made in this process, not yet written: its entry, and whether it replaces one on purpose. */
interface PendingRegistration {
  entry: Registration;
  accepted: boolean;
}

/**
 * Registrations made in this process and not yet written, per registrations file, by trial id. Rewriting the file for
 * each trial made a project's first run (every CI run of a project that does not commit its registrations) cost the
 * square of its number of trials: a thousand new trials wrote the growing file a thousand times, 5 ms a trial on
 * average. They are written together: a wait after the first of them (REGISTRATIONS_WAIT_MS, longer for a large file), when a host asks
 * (`writePendingRegistrations`, at the end of a test file), or when the process exits.
 */
const pending = new Map<string, Map<string, PendingRegistration>>();
/** Registrations taken from `pending` and being written (waiting for the file's lock): still written at exit. */
const writing = new Map<string, Map<string, PendingRegistration>>();
/** Registrations files this process registered into: each written at its exit (run/exit-writes), once. */
const writtenAtExit = new Set<string>();
/** How long a registration waits in memory for others to be written with it, at least. */
const REGISTRATIONS_WAIT_MS = 200;
/**
 * The wait is this many times the last write's time when that is longer: every write rewrites the whole file, so a
 * project of thousands of trials waits longer between writes and spends at most about 2% of its time writing them.
 */
const WAIT_PER_WRITE_MS = 50;
/** How long the last write of registrations took (reading the file, merging, writing, renaming), in ms. */
let lastWriteMs = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** Why the last write at the timer failed: thrown to the next trial that registers. */
let failure: unknown = null;

/**
 * Register a trial's policy with the Outcome of the run that first saw results under it: at a first run, or when a
 * changed policy was accepted. Written with the other registrations of the moment (see `pending`); a registration
 * another run made meanwhile for the same policy is kept.
 */
export async function recordRegistration(
  root: string,
  trialId: string,
  policy: DeclaredPolicy,
  check: RegistrationCheck,
  outcomeId: string,
): Promise<void> {
  if (check.status !== 'registered' && check.status !== 'accepted') return;
  throwFailure();
  const file = path.join(root, REGISTRATIONS_FILE);
  if (!writtenAtExit.has(file)) {
    writtenAtExit.add(file);
    writeAtExit({ file }, () => writeAtProcessExit(file));
  }
  let waiting = pending.get(file);
  if (waiting === undefined) {
    waiting = new Map();
    pending.set(file, waiting);
  }
  const registration: PendingRegistration = {
    entry: { policy: check.policy, declared: policy, outcome: outcomeId },
    accepted: check.status === 'accepted',
  };
  waiting.set(trialId, registration);
  journal(file, trialId, registration);
  if (timer === null) {
    timer = setTimeout(
      () => {
        writePendingRegistrations().catch((error: unknown) => {
          const why = error instanceof Error ? error.message : String(error);
          failure ??= new Error(`riddle: the declared policies of earlier trials could not be registered: ${why}`);
        });
      },
      Math.max(REGISTRATIONS_WAIT_MS, WAIT_PER_WRITE_MS * lastWriteMs),
    );
    // The process's exit writes what is left: the timer does not keep it alive.
    timer.unref();
  }
}

/** Writes of registrations, one after another: a host asking to write waits for any write already under way. */
let writes: Promise<void> = Promise.resolve();

/** Write every registration this process made and has not written yet (after any write already under way). */
export function writePendingRegistrations(): Promise<void> {
  // What the wait would have written is written now.
  if (timer !== null) {
    clearTimeout(timer);
    timer = null;
  }
  // An earlier write's failure was its caller's: this one writes what is pending whatever it was.
  writes = writes.catch(() => {}).then(writePendingNow);
  // A write at the wait that failed is this caller's too when no trial registered since to be told.
  return writes.then(throwFailure);
}

/** Throw the failure of the last write at the wait, once. */
function throwFailure(): void {
  if (failure === null) return;
  const thrown = failure;
  failure = null;
  throw thrown;
}

async function writePendingNow(): Promise<void> {
  for (const [file, batch] of [...pending]) {
    pending.delete(file);
    writing.set(file, batch);
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      await withFolderLock(path.dirname(file), 'registrations', () => writeRegistrations(file, batch));
    } finally {
      writing.delete(file);
    }
    settleJournal(file);
  }
}

/**
 * A process's registrations not yet in the file, a line each, beside it: written as each is made, so those of a
 * process killed before it wrote them (a worker that crashed just after its trials ended) are merged by the next
 * process that reads the file. Without them the next run would register the policy anew: a policy changed after its
 * results were seen would go unnoticed.
 */
const JOURNAL = /^registrations\.pending\.(.+)\.(\d+)\.jsonl$/;
const journalOf = (file: string) =>
  path.join(path.dirname(file), `registrations.pending.${os.hostname()}.${process.pid}.jsonl`);
/** Registrations files whose folder this process has made sure of. */
const journalled = new Set<string>();
/** Registrations files whose journals left by exited processes were merged by this process. */
const recovered = new Set<string>();

function journal(file: string, trialId: string, registration: PendingRegistration): void {
  try {
    if (!journalled.has(file)) {
      mkdirSync(path.dirname(file), { recursive: true });
      journalled.add(file);
    }
    appendFileSync(journalOf(file), `${JSON.stringify({ trial: trialId, ...registration })}\n`);
  } catch {
    // A folder the journal cannot go into fails the registrations' own write, which says so (see `failure`).
  }
}

/** After a write: the journal keeps only what is still to be written. */
function settleJournal(file: string): void {
  const left = [...(writing.get(file) ?? []), ...(pending.get(file) ?? [])];
  if (left.length === 0) rmSync(journalOf(file), { force: true });
  else
    writeFileSync(
      journalOf(file),
      left.map(([trial, registration]) => `${JSON.stringify({ trial, ...registration })}\n`).join(''),
    );
}

/** Merge the journals of processes on this machine that exited before writing them, then remove them. */
function recoverJournals(file: string): void {
  const dir = path.dirname(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = JOURNAL.exec(name);
    const pid = Number(match?.[2]);
    if (!match || match[1] !== os.hostname() || pid === process.pid || processAlive(pid)) continue;
    const left = path.join(dir, name);
    const batch = new Map<string, PendingRegistration>();
    for (const line of readFileSync(left, 'utf8').split('\n')) {
      // The last line of a process killed while appending may be cut short: what cannot be read is passed over.
      const parsed = JournalLine.safeParse(parseLine(line));
      if (parsed.success) batch.set(parsed.data.trial, { entry: parsed.data.entry, accepted: parsed.data.accepted });
    }
    if (batch.size > 0) withFolderLockSync(dir, 'registrations', () => writeRegistrations(file, batch));
    rmSync(left, { force: true });
  }
}

const JournalLine = z.object({ trial: z.string(), entry: Registration, accepted: z.boolean() });

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** The process is exiting: the registrations it has not written yet are written now, or said to be lost. */
function writeAtProcessExit(file: string): void {
  const batch = new Map([...(writing.get(file) ?? []), ...(pending.get(file) ?? [])]);
  writing.delete(file);
  pending.delete(file);
  if (batch.size === 0) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    withFolderLockSync(path.dirname(file), 'registrations', () => writeRegistrations(file, batch));
    settleJournal(file);
  } catch (error) {
    process.stderr.write(
      `riddle: could not register the declared policies of ${batch.size} trials in ${file} (${error instanceof Error ? error.message : String(error)}); their next run registers them again\n`,
    );
  }
}

/** Add registrations to the file, under its lock (one read, one write), noting how long it took. */
function writeRegistrations(file: string, waiting: ReadonlyMap<string, PendingRegistration>): void {
  const started = performance.now();
  try {
    mergeRegistrations(file, waiting);
  } finally {
    lastWriteMs = performance.now() - started;
  }
}

function mergeRegistrations(file: string, waiting: ReadonlyMap<string, PendingRegistration>): void {
  const registrations = read(file);
  // A new object: the one read may be the cached one, which stays as it was until the file is replaced.
  const trials: Record<string, unknown> = { ...registrations.entries };
  const checked = new Map(registrations.checked);
  let changed = false;
  for (const [trialId, { entry, accepted }] of waiting) {
    const existing = entryOf(registrations, trialId);
    // Registered meanwhile by another run: for the same policy, or (unless replaced on purpose) for another.
    if (existing && (existing.policy === entry.policy || !accepted)) continue;
    trials[trialId] = entry;
    checked.set(trialId, entry);
    changed = true;
  }
  if (!changed) return;
  const sorted = Object.fromEntries(Object.entries(trials).sort(([a], [b]) => (a < b ? -1 : 1)));
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ schema: REGISTRATIONS_SCHEMA, trials: sorted }, null, 2)}\n`);
  renameSync(temp, file);
  const stamp = stampOf(file);
  if (stamp !== null) known.set(file, { stamp, registrations: { file, entries: sorted, checked } });
}
