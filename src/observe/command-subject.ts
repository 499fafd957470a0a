import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  Claim,
  effectRank,
  fingerprint,
  type JsonValue,
  type ProcessExit,
  type SubjectIdentity,
  lazySchema,
} from '../model/index.js';
import {
  either,
  having,
  listOf,
  nonEmpty,
  numberAtLeast,
  object,
  oneOf,
  optional,
  optionsChecker,
  recordOf,
  text,
} from '../model/options-check.js';
import { bubblewrap } from './isolation/bubblewrap.js';
import type { IsolationEngine } from './isolation/engine.js';
import { leftovers } from './leftovers.js';
import { removeSmallTree } from './sandbox.js';
import { runProcess } from './process-run.js';
import { readReceiptsFile } from './receipts.js';
import { resolveRevision, type RevisionSource } from './revision.js';
import { attemptSecretValues, jsonParseProblem, redactText, secretValues } from './secrets.js';
import { scrubbedCut } from './captured-output.js';
import type { AttemptContext, ClaimInput, Isolation, RoundFailure, Subject, SubjectResponse } from './subject.js';

/** Variables a command gets from riddle's environment unless its allowlist says otherwise: none secret. */
export const DEFAULT_ENV_ALLOW: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SYSTEMROOT'];

export interface CommandSubjectOptions {
  name: string;
  /** The executable: an absolute path, or a name found on PATH. */
  command: string;
  /**
   * Arguments, passed as an array and never through a shell. Placeholders replaced per round: `{input}`,
   * `{workspace}`, `{round}`, `{mcpUrl}`, `{mcpConfig}`. Give paths to scripts as absolute paths: the command runs
   * in the attempt's sandbox.
   */
  args?: readonly string[];
  /** Where the round's input goes: `stdin` (default), or `argument` (at `{input}`, else appended last). Non-string input is JSON. */
  input?: 'stdin' | 'argument';
  /** `text` (default): stdout is the reply. `json`: stdout is `{ "reply": …, "claims": [...] }`, or any JSON value as the reply. */
  stdout?: 'text' | 'json';
  /** Only the `allow`ed variables pass from riddle's environment (default DEFAULT_ENV_ALLOW), plus those `set` here. */
  env?: { allow?: readonly string[]; set?: Readonly<Record<string, string>> };
  /**
   * The revision the Outcome binds to: declared, `git` (commit + dirty hash of `sourceDir`), or `package`
   * (`name@version` of `sourceDir`'s package.json). Default: a fingerprint of this declaration and of the files
   * it names (the command and any argument that is a file), marked `content`.
   */
  revision?: RevisionSource;
  /** Folder the revision is read from, and against which file arguments are found (default: the current folder). */
  sourceDir?: string;
  /** Working directory: `workspace` (default, the attempt's sandbox) or an absolute path. */
  cwd?: 'workspace' | string;
  /** Exit codes of a completed round (default `[0]`); any other exit, or a signal, is a subject error. */
  exitCodes?: readonly number[];
  /** Between SIGTERM and SIGKILL when a stop condition ends the process tree, in milliseconds (default 2000). */
  killGraceMs?: number;
  /** Which MCP transport `{mcpConfig}` and RIDDLE_MCP_CONFIG describe: `stdio` (default, a relay command) or `http`. */
  mcp?: 'stdio' | 'http';
  /**
   * Run each round inside an OS sandbox: `'bubblewrap'`, or `{ engine, network }`. The file system is read-only but
   * for the workspace (and a private /tmp), so a write anywhere else fails inside the subject. `network: 'allow'`
   * keeps the network for Cases whose effect class is `external` or above; otherwise (and by default) the subject
   * has none, and reaches its MCP tools through the stdio bridge (`mcp: 'stdio'`). Unset: no isolation.
   */
  isolation?: IsolationOption;
}

/** How a command subject is isolated: an engine by name (or your own), and whether it may keep the network. */
export type IsolationOption = 'bubblewrap' | { engine: 'bubblewrap' | IsolationEngine; network?: 'none' | 'allow' };

const ENGINE = "'bubblewrap' or an IsolationEngine { name, available, wrap }";
const ISOLATION = "'bubblewrap' or { engine, network }";

const checkOptions = optionsChecker<CommandSubjectOptions>(
  'commandSubject',
  {
    name: nonEmpty,
    command: nonEmpty,
    args: optional(listOf(text, 'an array of strings')),
    input: optional(oneOf(['stdin', 'argument'])),
    stdout: optional(oneOf(['text', 'json'])),
    env: optional(
      object<NonNullable<CommandSubjectOptions['env']>>({
        allow: optional(listOf(text, 'an array of variable names')),
        set: optional(recordOf(text, 'an object of variable values (strings) by name')),
      }),
    ),
    revision: optional(nonEmpty),
    sourceDir: optional(text),
    cwd: optional(nonEmpty),
    exitCodes: optional(listOf(numberAtLeast(0, true), 'an array of exit codes (whole numbers ≥ 0)')),
    killGraceMs: optional(numberAtLeast(0)),
    mcp: optional(oneOf(['stdio', 'http'])),
    isolation: optional(
      either(ISOLATION, (value) =>
        typeof value === 'string'
          ? oneOf(['bubblewrap'], ISOLATION)
          : typeof value === 'object' && value !== null && !Array.isArray(value)
            ? object<Exclude<IsolationOption, string>>({
                engine: either(ENGINE, (engine) =>
                  typeof engine === 'string' ? oneOf(['bubblewrap'], ENGINE) : having(ENGINE, ['available', 'wrap']),
                ),
                network: optional(oneOf(['none', 'allow'])),
              })
            : null,
      ),
    ),
  },
  'name',
);

function resolveIsolation(
  option: IsolationOption | undefined,
): { engine: IsolationEngine; network: 'none' | 'allow' } | null {
  if (option === undefined) return null;
  if (option === 'bubblewrap') return { engine: bubblewrap, network: 'none' };
  return { engine: option.engine === 'bubblewrap' ? bubblewrap : option.engine, network: option.network ?? 'none' };
}

const StdoutReply = lazySchema(() =>
  z.object({
    reply: z.unknown(),
    claims: z.array(Claim.pick({ action: true, target: true, text: true })).optional(),
  }),
);

function inputText(input: JsonValue): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** The declaration and the files it names, hashed: any edit to the agent's script gives a new revision. */
function contentRevision(options: CommandSubjectOptions, sourceDir: string): string {
  const files: [string, string][] = [];
  for (const word of [options.command, ...(options.args ?? [])]) {
    const file = path.resolve(sourceDir, word);
    if (existsSync(file) && statSync(file).isFile())
      files.push([word, createHash('sha256').update(readFileSync(file)).digest('hex')]);
  }
  const declaration = {
    command: options.command,
    args: options.args ?? [],
    input: options.input ?? 'stdin',
    stdout: options.stdout ?? 'text',
    allow: options.env?.allow ?? DEFAULT_ENV_ALLOW,
    // Names only: values set here may be secrets.
    set: Object.keys(options.env?.set ?? {}).sort(),
    exitCodes: options.exitCodes ?? [0],
  };
  return fingerprint({ declaration, files }).slice(7, 19);
}

function exitFailure(exit: ProcessExit, exitCodes: readonly number[], secrets: readonly string[]): RoundFailure | null {
  // Scrubbed before it is cut: the tail of a secret would no longer be found.
  const tail = redactText(exit.stderr.text, secrets).trim().slice(-400);
  const said = tail === '' ? '' : `: ${tail}`;
  if (exit.signal !== null) return { status: 'subject_error', message: `killed by ${exit.signal}${said}` };
  if (exit.code !== null && !exitCodes.includes(exit.code))
    return { status: 'subject_error', message: `exited with code ${exit.code}${said}` };
  return null;
}

function readReply(stdout: string, mode: 'text' | 'json'): { reply: JsonValue; claims?: ClaimInput[] } | RoundFailure {
  const text = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  if (mode === 'text') return { reply: text };
  let data: JsonValue;
  try {
    data = JSON.parse(text) as JsonValue;
  } catch (error) {
    return { status: 'subject_error', message: `stdout is not JSON (${jsonParseProblem(error)})` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('reply' in data)) return { reply: data };
  const parsed = StdoutReply.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      status: 'subject_error',
      message: `stdout claims are malformed at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`,
    };
  }
  return parsed.data.claims ? { reply: data.reply ?? null, claims: parsed.data.claims } : { reply: data.reply ?? null };
}

/** Entries a round's channel folder may hold to be removed with synchronous calls: riddle's own files, a few more. */
const SYNC_CHANNEL_ENTRIES = 16;
/** Texts up to this length are written in one synchronous call (see `writeSmall`). */
const SYNC_WRITE_CHARS = 256 * 1024;

/**
 * Write a round's file: synchronously when small, as it nearly always is. A promise-based write costs the worker
 * several times the CPU of the write itself (a thread-pool round trip and its promises), every round; a history of
 * long replies is written without blocking.
 */
async function writeSmall(file: string, text: string): Promise<void> {
  if (text.length <= SYNC_WRITE_CHARS) writeFileSync(file, text);
  else await writeFile(file, text);
}

/**
 * Remove a round's channel folder: riddle's few files and the folder with synchronous calls (removeSmallTree, links
 * never followed); a folder the subject left many entries in is removed whole, without blocking.
 */
async function removeChannel(channel: string): Promise<void> {
  if (!removeSmallTree(channel, SYNC_CHANNEL_ENTRIES)) await rm(channel, { recursive: true, force: true });
}

/**
 * A subject that is a command, run once per round in the attempt's sandbox with an allowlisted environment.
 * Besides the input, each round gets (as environment variables) RIDDLE_ROUND; RIDDLE_WORKSPACE; RIDDLE_HISTORY, a
 * JSON file of earlier rounds' inputs and replies; RIDDLE_RECEIPTS, a file to append provider receipts to as JSON
 * lines; and, when tools are served over MCP, RIDDLE_MCP_URL (streamable HTTP) and RIDDLE_MCP_CONFIG, a
 * `{"mcpServers": {"riddle": …}}` file in the format MCP clients read.
 */
export function commandSubject(options: CommandSubjectOptions): Subject {
  checkOptions(options);
  const sourceDir = path.resolve(options.sourceDir ?? process.cwd());
  const exitCodes = options.exitCodes ?? [0];
  const isolation = resolveIsolation(options.isolation);
  // Values set for the command that are secret by the rule process.env's are (by name or by shape).
  const secrets = secretValues(options.env?.set ?? {});
  let identity: Promise<SubjectIdentity> | undefined;
  return {
    kind: 'command',
    name: options.name,
    secrets,
    isolation:
      isolation === null ? null : ({ engine: isolation.engine.name, network: isolation.network } satisfies Isolation),
    identify() {
      identity ??=
        options.revision === undefined
          ? Promise.resolve({
              kind: 'command',
              name: options.name,
              revision: contentRevision(options, sourceDir),
              revisionSource: 'content',
            })
          : resolveRevision('command', options.name, options.revision, sourceDir);
      return identity;
    },
    async respond(input, context) {
      const channel = mkdtempSync(path.join(os.tmpdir(), 'riddle-channel-'));
      leftovers.holdFolder(channel);
      try {
        return await runRound(options, exitCodes, isolation, input, context, channel, secrets);
      } finally {
        await removeChannel(channel);
        leftovers.releaseFolder(channel);
      }
    },
  };
}

async function runRound(
  options: CommandSubjectOptions,
  exitCodes: readonly number[],
  isolation: ReturnType<typeof resolveIsolation>,
  input: JsonValue,
  context: AttemptContext,
  channel: string,
  declaredSecrets: readonly string[],
): Promise<SubjectResponse> {
  const cwd = options.cwd === undefined || options.cwd === 'workspace' ? context.workspace : options.cwd;
  if (cwd === null)
    return {
      reply: null,
      failure: {
        status: 'harness_error',
        message: `command subject ${options.name} runs in the attempt's workspace, and this attempt has none`,
      },
    };
  const receiptsFile = path.join(channel, 'receipts.jsonl');
  const historyFile = path.join(channel, 'history.json');
  await writeSmall(
    historyFile,
    JSON.stringify(context.history.map((round) => ({ input: round.input, reply: round.reply }))),
  );
  const riddleEnv: Record<string, string> = {
    RIDDLE_ROUND: String(context.round),
    RIDDLE_HISTORY: historyFile,
    RIDDLE_RECEIPTS: receiptsFile,
    ...(context.workspace === null ? {} : { RIDDLE_WORKSPACE: context.workspace }),
  };
  // An isolated subject keeps the network only when declared and the Case's effect class reaches outside.
  const network =
    isolation === null || (isolation.network === 'allow' && effectRank(context.effectClass) >= effectRank('external'));
  let mcpConfig = '';
  if (context.mcp !== null) {
    mcpConfig = path.join(channel, 'mcp.json');
    // A sandbox's loopback need not be the host's (and without a network there is none): an isolated subject gets
    // the Node bridge, which reaches the gateway over the unix socket mounted into its sandbox.
    const stdio = isolation === null ? context.mcp.stdio : context.mcp.stdioOverSocket;
    const server =
      (options.mcp ?? 'stdio') === 'stdio'
        ? { type: 'stdio', command: stdio.command, args: stdio.args, env: stdio.env }
        : { type: 'http', url: context.mcp.url };
    writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { riddle: server } }, null, 2));
    riddleEnv.RIDDLE_MCP_URL = context.mcp.url;
    riddleEnv.RIDDLE_MCP_CONFIG = mcpConfig;
  }
  const text = inputText(input);
  const values: Record<string, string> = {
    '{input}': text,
    '{workspace}': context.workspace ?? '',
    '{round}': String(context.round),
    '{mcpUrl}': context.mcp?.url ?? '',
    '{mcpConfig}': mcpConfig,
  };
  const fill = (arg: string) =>
    arg.replace(/\{(input|workspace|round|mcpUrl|mcpConfig)\}/g, (found) => values[found] ?? found);
  const args = (options.args ?? []).map(fill);
  const asArgument = options.input === 'argument';
  if (asArgument && !(options.args ?? []).some((arg) => arg.includes('{input}'))) args.push(text);
  const env: Record<string, string> = {};
  for (const name of options.env?.allow ?? DEFAULT_ENV_ALLOW) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, options.env?.set ?? {}, context.variables ?? {}, riddleEnv);
  let launch: ReturnType<IsolationEngine['wrap']> = { command: options.command, args };
  if (isolation !== null) {
    const { engine } = isolation;
    const availability = await engine.available();
    if (!availability.available)
      return {
        reply: null,
        failure: {
          status: 'harness_error',
          message: `command subject ${options.name} is declared isolated by ${engine.name}, which cannot run here: ${availability.detail}`,
        },
      };
    if (!network && context.mcp !== null && (options.mcp ?? 'stdio') === 'http')
      return {
        reply: null,
        failure: {
          status: 'harness_error',
          message: `command subject ${options.name} runs isolated without a network, so the MCP gateway's HTTP URL is out of its reach: declare mcp: 'stdio' (the bridge reaches the gateway over a unix socket)`,
        },
      };
    launch = engine.wrap(options.command, args, {
      workspace: context.workspace ?? cwd,
      writable: [channel],
      readable: [...visibleInSandbox(options.command, args), ...(context.mcp === null ? [] : [context.mcp.folder])],
      cwd,
      network,
    });
  }
  const run = await runProcess({
    command: launch.command,
    args: launch.args,
    // The engine's own processes (bwrap and its reaper): sampled and signalled below them, at the subject.
    ...(launch.launcher ? { launcher: launch.launcher } : {}),
    cwd,
    env,
    stdin: asArgument ? null : text,
    maxOutputBytes: context.stop.maxOutputBytes,
    killGraceMs: options.killGraceMs ?? 2000,
    signal: context.signal,
  });
  const received = await readReceiptsFile(receiptsFile);
  for (const receipt of received.receipts) context.recordReceipt(receipt);
  const notes = [...run.notes, ...received.notes];
  if (run.exit === null) return { reply: null, resources: run.resources, failure: run.failure ?? undefined, notes };
  const secrets = context.secrets ?? attemptSecretValues(declaredSecrets);
  const exit = {
    ...run.exit,
    stdout: scrubbedCut(run.exit.stdout, secrets),
    stderr: scrubbedCut(run.exit.stderr, secrets),
  };
  const base = { exit, resources: run.resources, notes };
  const failure = run.failure ?? exitFailure(exit, exitCodes, secrets);
  const read = readReply(exit.stdout.text, options.stdout ?? 'text');
  if ('status' in read) return { ...base, reply: exit.stdout.text, failure: failure ?? read };
  return failure === null ? { ...base, ...read } : { ...base, ...read, failure };
}

/**
 * Folders an isolated command must still read where the sandbox's private /tmp would hide them: the project (its
 * scripts, fixtures and node_modules) and the folders of the command and of its arguments that are existing absolute
 * paths. A clone under /tmp is as common on CI as anywhere; read-only, so a write there still fails.
 */
function visibleInSandbox(command: string, args: readonly string[]): string[] {
  const referenced = [command, ...args].filter((arg) => path.isAbsolute(arg) && existsSync(arg));
  // Never a whole temporary folder (or the root): that would show the sandbox every other temporary file.
  const tooWide = new Set(['/', '/tmp', os.tmpdir()]);
  const folders = [process.cwd(), ...referenced.map((file) => path.dirname(file))].filter((f) => !tooWide.has(f));
  return [...new Set(folders)];
}
