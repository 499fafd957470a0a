import { existsSync, readFileSync } from 'node:fs';
import { CASE_SCHEMA, systemClock, type Case, type JsonValue } from '../../src/model/index.js';
import {
  commandSubject,
  type AttemptPlan,
  type CommandSubjectOptions,
  type IsolationEngine,
  type Subject,
  type ToolDefinition,
} from '../../src/observe/index.js';

/** Absolute path of a file under the repository. */
export const repoPath = (relative: string) => new URL(`../../${relative}`, import.meta.url).pathname;

/** The scripted test subject: its input (JSON on stdin) lists the steps it takes. */
export const SCRIPTED = repoPath('fixtures/observe-programs/scripted.mjs');

export function testCase(input: JsonValue, overrides: Partial<Case> = {}): Case {
  return {
    schema: CASE_SCHEMA,
    id: 'case',
    input,
    followUps: [],
    fixtures: null,
    expect: [],
    forbid: [],
    oracle: null,
    effectClass: 'write',
    stop: { timeoutMs: 10_000, maxOutputBytes: 64 * 1024, maxRounds: 5 },
    dependencies: [],
    sealed: false,
    tags: {},
    pressure: null,
    trap: null,
    ...overrides,
  };
}

export function plan(
  subject: Subject,
  input: JsonValue,
  extra: Partial<AttemptPlan> & { caseOverrides?: Partial<Case> } = {},
): AttemptPlan {
  const { caseOverrides, ...rest } = extra;
  return {
    arm: 'case',
    attempt: 0,
    seed: 1,
    case: testCase(input, caseOverrides),
    subject,
    tools: [] as ToolDefinition[],
    clock: systemClock,
    ...rest,
  };
}

/** True while a process exists and is not a zombie. */
export function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (existsSync('/proc/self/stat')) {
    if (!existsSync(stat)) return false;
    try {
      const text = readFileSync(stat, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait until `check` holds, polling, or give up after `ms`. */
export async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** An isolation engine that runs the command as it is: stands for a container whose loopback is not the host's. */
export const passThroughIsolation: IsolationEngine = {
  name: 'pass-through',
  available: async () => ({ available: true, detail: 'test' }),
  wrap: (command, args) => ({ command, args: [...args] }),
};

/** A command subject whose reply is the MCP configuration riddle gave it (the file `RIDDLE_MCP_CONFIG` names). */
export function mcpConfigReader(isolation?: CommandSubjectOptions['isolation']): Subject {
  return commandSubject({
    name: 'reads-config',
    command: process.execPath,
    args: ['-e', 'process.stdout.write(require("node:fs").readFileSync(process.env.RIDDLE_MCP_CONFIG, "utf8"))'],
    stdout: 'json',
    revision: '1',
    ...(isolation ? { isolation } : {}),
  });
}
