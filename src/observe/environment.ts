import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  versions: { riddle: string; vitest: string };
  projectRoot: string;
  independentAttempts: boolean;
  notes: readonly string[];
}

const SECRET_NAME = /key|token|password|passwd|secret|credential|auth|cookie|session/i;
const SECRET_VALUE = /^(sk-|sk_|pk_|rk_|ghp_|gho_|ghs_|github_pat_|xox[abprs]-|AKIA|ASIA|AIza|glpat-|hf_|eyJ)/;

/** Redact values that look secret, by the variable's name or a known key prefix. */
export function redactVariable(name: string, value: string): string {
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value) ? '[redacted]' : value;
}

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function lockfileHash(root: string): string | null {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const lock = path.join(dir, 'package-lock.json');
    if (existsSync(lock)) return sha256(readFileSync(lock));
    if (path.dirname(dir) === dir) return null;
  }
}

/** Capture the Environment an attempt ran in: what is pinned about the subject, the machine and the harness. */
export function captureEnvironment(input: EnvironmentInput): Environment {
  const commit = git(input.projectRoot, ['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(input.projectRoot, ['status', '--porcelain']);
  const variables: Record<string, string> = {};
  for (const name of [...input.variables].sort()) {
    const value = process.env[name];
    if (value !== undefined) variables[name] = redactVariable(name, value);
  }
  return {
    schema: ENVIRONMENT_SCHEMA,
    subject: input.subject,
    prompts: Object.entries(input.prompts)
      .map(([name, text]) => ({ name, fingerprint: fingerprint(text) }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    tools: input.tools
      .map((tool) => ({ name: tool.name, effect: tool.effect, fingerprint: fingerprint({ description: tool.description, inputSchema: tool.inputSchema, effect: tool.effect }) }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    dependencies: input.dependencies.map(({ dependency, available, detail }) => ({ name: dependency.name, kind: dependency.kind, available, detail })),
    runtime: {
      node: process.version,
      os: `${os.type()} ${os.release()}`,
      arch: os.arch(),
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      cpuCount: os.cpus().length,
      memoryBytes: os.totalmem(),
    },
    harness: input.versions,
    project: { gitCommit: commit, dirty: status === null ? null : status.length > 0, lockfileSha256: lockfileHash(input.projectRoot) },
    variables,
    budgets: { timeoutMs: input.budgets.timeoutMs, maxOutputBytes: input.budgets.maxOutputBytes, maxRounds: input.budgets.maxRounds },
    effectPolicy: { maxEffect: input.maxEffect },
    independentAttempts: input.independentAttempts,
    notes: [...input.notes],
  };
}
