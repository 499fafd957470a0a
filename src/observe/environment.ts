import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ENVIRONMENT_SCHEMA,
  fingerprint,
  sha256,
  type Dependency,
  type EffectClass,
  type Environment,
  type StopCondition,
  type SubjectIdentity,
} from '../model/index.js';
import { redactData, redactVariable, secretValues } from './secrets.js';
import type { ToolDefinition } from './subject.js';

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

/** riddle's version and the Vitest version a project resolves: recorded in every Environment and run index. */
export function harnessVersions(projectRoot: string): { riddle: string; vitest: string } {
  return { riddle: riddleVersion(), vitest: vitestVersion(projectRoot) };
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

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** sha256 of the nearest lockfile at or above the project root (workspaces keep it at the top). */
function lockfileHash(root: string): string | null {
  for (let dir = root; ; dir = path.dirname(dir)) {
    for (const name of LOCKFILES) {
      const lock = path.join(dir, name);
      if (existsSync(lock)) return sha256(readFileSync(lock));
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Capture the Environment a trial runs in: what is pinned about the subject, the machine and the harness.
 * Environment variables are recorded only by name from the allowlist, and the value of any that looks secret (by
 * name or by a known key prefix) is never written.
 */
export function captureEnvironment(input: EnvironmentInput): Environment {
  const commit = git(input.projectRoot, ['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(input.projectRoot, ['status', '--porcelain']);
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
    runtime: {
      node: process.version,
      os: `${os.type()} ${os.release()}`,
      arch: os.arch(),
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      cpuCount: os.cpus().length,
      memoryBytes: os.totalmem(),
    },
    harness: input.versions ?? harnessVersions(input.projectRoot),
    project: {
      gitCommit: commit,
      dirty: status === null ? null : status.length > 0,
      lockfileSha256: lockfileHash(input.projectRoot),
    },
    variables,
    budgets: {
      timeoutMs: input.budgets.timeoutMs,
      maxOutputBytes: input.budgets.maxOutputBytes,
      maxRounds: input.budgets.maxRounds,
    },
    effectPolicy: { maxEffect: input.maxEffect },
    independentAttempts: input.independentAttempts,
    notes: [...input.notes],
  };
  // Free text (dependency details, notes) could still quote a secret value: scrub the whole record.
  return redactData(environment, secretValues(process.env));
}
