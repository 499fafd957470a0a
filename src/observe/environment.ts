import { execFile } from 'node:child_process';
import { constants, readFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Environment as EnvironmentRecord,
  ENVIRONMENT_SCHEMA,
  fingerprint,
  sha256,
  type Dependency,
  type EffectClass,
  type Environment,
  type StopCondition,
  type SubjectIdentity,
} from '../model/index.js';
import { redactData, redactVariable, refreshProcessSecretValues } from './secrets.js';
import type { Isolation, ToolDefinition } from './subject.js';

export interface EnvironmentInput {
  subject: SubjectIdentity;
  tools: readonly ToolDefinition[];
  prompts: Readonly<Record<string, string>>;
  dependencies: readonly { dependency: Dependency; available: boolean; detail: string }[];
  budgets: StopCondition;
  maxEffect: EffectClass;
  /** Names of environment variables to record; secret-looking values are redacted. */
  variables: readonly string[];
  /** Harness versions; by default read from riddle's own package.json and the Vitest the project resolves. */
  versions?: { riddle: string; vitest: string };
  projectRoot: string;
  /** The OS sandbox the subject runs in (its `isolation`), or null when it runs unisolated. */
  isolation: Isolation | null;
  independentAttempts: boolean;
  notes: readonly string[];
}

const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock'];

function versionIn(packageJson: string): string {
  try {
    const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** riddle's own version (its package.json sits two folders above this module, in the sources and in the build). */
function riddleVersion(): string {
  return versionIn(fileURLToPath(new URL('../../package.json', import.meta.url)));
}

const harnessCache = new Map<string, { riddle: string; vitest: string }>();

/** riddle's version and the Vitest version a project resolves: recorded in every Environment and run index. */
export function harnessVersions(projectRoot: string): { riddle: string; vitest: string } {
  let versions = harnessCache.get(projectRoot);
  if (!versions) {
    versions = { riddle: riddleVersion(), vitest: vitestVersion(projectRoot) };
    harnessCache.set(projectRoot, versions);
  }
  return versions;
}

/**
 * Use the harness versions the riddle reporter read once for the run (the Vitest a project resolves costs a worker a
 * module resolution, milliseconds), when they name this riddle's own version. False, and nothing kept, otherwise.
 */
export function adoptHarnessVersions(projectRoot: string, provided: unknown): boolean {
  if (provided === null || typeof provided !== 'object') return false;
  const { riddle, vitest } = provided as Record<string, unknown>;
  if (typeof riddle !== 'string' || typeof vitest !== 'string' || riddle !== riddleVersion()) return false;
  harnessCache.set(projectRoot, { riddle, vitest });
  return true;
}

/** The Vitest version the project resolves, else the one riddle resolves. */
function vitestVersion(projectRoot: string): string {
  for (const from of [path.join(projectRoot, 'package.json'), fileURLToPath(import.meta.url)]) {
    try {
      return versionIn(createRequire(from).resolve('vitest/package.json'));
    } catch {
      continue;
    }
  }
  return 'not installed';
}

/**
 * How long git may take to answer before the project's git state is recorded as unknown (null): a git that does not
 * answer (a hung fsmonitor hook, a file system that stopped responding) must not hold the run's start for good.
 */
const GIT_TIMEOUT_MS = 60_000;

function git(root: string, args: string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout) => resolve(error ? null : stdout.trim()),
    );
  });
}

/** A lockfile past this is not hashed, and recorded as unknown: lockfiles are megabytes at most. */
const LOCKFILE_MAX_BYTES = 256 * 1024 * 1024;

/**
 * sha256 of the nearest lockfile at or above the project root (workspaces keep it at the top); null when there is none,
 * or when what stands in its place is not a regular file of a lockfile's size.
 */
async function lockfileHash(
  root: string,
  digestOf: (file: string) => Promise<string | null | 'absent'>,
): Promise<string | null> {
  for (let dir = root; ; dir = path.dirname(dir)) {
    for (const name of LOCKFILES) {
      const digest = await digestOf(path.join(dir, name));
      if (digest !== 'absent') return digest;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * The sha256 of one lockfile, 'absent' when there is none (or a folder has its name), null when something else is
 * there. Opened without waiting: a FIFO in a lockfile's place (a subject can write outside its workspace) would
 * otherwise hold the read, and with it the run's start, for good.
 */
async function lockfileDigest(file: string): Promise<string | null | 'absent'> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return 'absent';
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return 'absent';
    if (!stat.isFile() || stat.size > LOCKFILE_MAX_BYTES) return null;
    return sha256(await handle.readFile());
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** Facts about the project and machine that cannot change while a run lasts. */
export interface RunFacts {
  project: Environment['project'];
  runtime: Environment['runtime'];
}

const runFactsCache = new Map<string, Promise<RunFacts>>();

/**
 * The project's git commit and status, lockfile hash and the machine, captured once per project root and kept
 * (per worker) until `forgetRunFacts`: running git and hashing the lockfile for every trial cost tens of
 * milliseconds each. Asynchronous, so capturing overlaps with collection and other work; it never rejects. Facts
 * captured once for the whole run (`adoptRunFacts`) are used as they are.
 */
export function runFacts(projectRoot: string): Promise<RunFacts> {
  let facts = runFactsCache.get(projectRoot);
  if (!facts) {
    facts = captureRunFacts(projectRoot);
    runFactsCache.set(projectRoot, facts);
  }
  return facts;
}

/** Drop the captured run facts, so the next trial captures them afresh (a new run in a reused worker). */
export function forgetRunFacts(): void {
  runFactsCache.clear();
}

/**
 * Use facts captured once for the whole run (by the riddle reporter, in Vitest's main process) for this project root,
 * rather than capturing them here: every test file's worker ran git twice and hashed the lockfile, and `git status`
 * alone costs milliseconds per thousand files of the repository. False, and nothing kept, when the value given is not
 * run facts (a different riddle in the main process): this process then captures its own.
 */
export function adoptRunFacts(projectRoot: string, provided: unknown): boolean {
  if (provided === null || typeof provided !== 'object') return false;
  const { project, runtime } = provided as Record<string, unknown>;
  const parsedProject = EnvironmentRecord.shape.project.safeParse(project);
  const parsedRuntime = EnvironmentRecord.shape.runtime.safeParse(runtime);
  if (!parsedProject.success || !parsedRuntime.success) return false;
  runFactsCache.set(projectRoot, Promise.resolve({ project: parsedProject.data, runtime: parsedRuntime.data }));
  return true;
}

/**
 * Capture the run facts of a project root afresh (once per worker, when no riddle reporter captured them for the run).
 * A git call that has not answered within `gitTimeoutMs` is killed, and the commit or status it was to give is unknown.
 */
export async function captureRunFacts(root: string, gitTimeoutMs = GIT_TIMEOUT_MS): Promise<RunFacts> {
  return (await captureRunFactsOf([root], gitTimeoutMs)).get(root) as RunFacts;
}

/**
 * The run facts of several project roots at once (the riddle reporter's, for the projects a run tests): each root's
 * repository and commit in one git call, the status once per repository, and each lockfile hashed once. A workspace of
 * many packages in one repository would otherwise read the whole repository's status once per package. Outside a
 * repository, or in one without a commit, the commit and status are unknown (null).
 */
export async function captureRunFactsOf(
  roots: readonly string[],
  gitTimeoutMs = GIT_TIMEOUT_MS,
): Promise<Map<string, RunFacts>> {
  const runtime = machineFacts();
  const statuses = new Map<string, Promise<string | null>>();
  const digests = new Map<string, Promise<string | null | 'absent'>>();
  const digestOf = (file: string) => {
    let digest = digests.get(file);
    if (digest === undefined) digests.set(file, (digest = lockfileDigest(file)));
    return digest;
  };
  const facts = await Promise.all(
    [...new Set(roots)].map(async (root): Promise<[string, RunFacts]> => {
      const [located, lockfileSha256] = await Promise.all([
        git(root, ['rev-parse', '--show-toplevel', 'HEAD'], gitTimeoutMs),
        lockfileHash(root, digestOf),
      ]);
      const [repository, commit] = located?.split('\n') ?? [];
      let status: string | null = null;
      if (repository && commit) {
        let read = statuses.get(repository);
        if (read === undefined)
          statuses.set(repository, (read = git(repository, ['status', '--porcelain'], gitTimeoutMs)));
        status = await read;
      }
      const gitCommit = repository && commit ? commit : null;
      return [
        root,
        {
          project: {
            gitCommit,
            dirty: gitCommit === null || status === null ? null : status.length > 0,
            lockfileSha256,
          },
          runtime: { ...runtime },
        },
      ];
    }),
  );
  return new Map(facts);
}

/** What a run records of the machine. */
function machineFacts(): RunFacts['runtime'] {
  const cpus = os.cpus();
  return {
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    memoryBytes: os.totalmem(),
  };
}

/**
 * Capture the Environment a trial runs in: what is pinned about the subject, the machine and the harness.
 * Environment variables are recorded only by name from the allowlist, and the value of any that looks secret (by
 * name or by a known key prefix) is never written.
 */
export async function captureEnvironment(input: EnvironmentInput): Promise<Environment> {
  const facts = await runFacts(input.projectRoot);
  const variables: Record<string, string> = {};
  for (const name of [...input.variables].sort()) {
    const value = process.env[name];
    if (value !== undefined) variables[name] = redactVariable(name, value);
  }
  const environment: Environment = {
    schema: ENVIRONMENT_SCHEMA,
    subject: input.subject,
    prompts: Object.entries(input.prompts)
      .map(([name, text]) => ({ name, fingerprint: fingerprint(text) }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    tools: input.tools
      .map((tool) => ({
        name: tool.name,
        effect: tool.effect,
        fingerprint: fingerprint({ description: tool.description, inputSchema: tool.inputSchema, effect: tool.effect }),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    dependencies: input.dependencies.map(({ dependency, available, detail }) => ({
      name: dependency.name,
      kind: dependency.kind,
      available,
      detail,
    })),
    runtime: { ...facts.runtime },
    harness: input.versions ?? harnessVersions(input.projectRoot),
    project: { ...facts.project },
    variables,
    budgets: {
      timeoutMs: input.budgets.timeoutMs,
      maxOutputBytes: input.budgets.maxOutputBytes,
      maxRounds: input.budgets.maxRounds,
    },
    effectPolicy: { maxEffect: input.maxEffect },
    isolation: input.isolation,
    independentAttempts: input.independentAttempts,
    notes: [...input.notes],
  };
  // Free text (dependency details, notes) could still quote a secret value: scrub the whole record. A trial's start
  // is also when the secret values attempts scrub are read afresh from process.env.
  return redactData(environment, refreshProcessSecretValues());
}
