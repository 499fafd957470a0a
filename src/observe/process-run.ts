import { clearTimeout, setTimeout } from 'node:timers';
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { ProcessExit } from '../model/index.js';
import { OutputCapture } from './captured-output.js';
import { killGroup, leftovers } from './leftovers.js';
import type { Launcher } from './isolation/engine.js';
import { processTree, sampleTree } from './process-sampler.js';
import { checkArguments, startFailureMessage } from './start-failure.js';
import type { RoundFailure, RoundResources } from './subject.js';

/** How long output may keep flowing after the root process exited, in milliseconds. */
const PIPE_DRAIN_MS = 500;

export interface ProcessSpec {
  command: string;
  /** Argument array, passed as is: never through a shell. */
  args: readonly string[];
  cwd: string;
  /** The whole environment of the process (nothing is inherited). */
  env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; null leaves stdin empty. */
  stdin: string | null;
  /** Bytes kept per stream; a stream going past it stops the process tree. */
  maxOutputBytes: number;
  /** Between SIGTERM and SIGKILL when the tree is stopped, in milliseconds. */
  killGraceMs: number;
  /** Aborting it stops the process tree (the attempt's budget ran out). */
  signal: AbortSignal;
  /** The isolation engine's processes the command starts the subject under, if any (`wrap`'s `launcher`). */
  launcher?: Launcher;
}

export interface ProcessRun {
  /** Null when the process never started. */
  exit: ProcessExit | null;
  resources: RoundResources;
  failure: RoundFailure | null;
  notes: string[];
}

/**
 * Run a command in its own process group and observe it: exit code or signal, both output streams (capped,
 * hashed whole), CPU time and peak memory. A stop condition (the budget's abort, output past the cap) ends the
 * whole tree with SIGTERM (under a launcher, the subject's processes only), then SIGKILL after the grace period. When the command exits, whatever it left running
 * in its group is killed too, so no subject process outlives its round. A process that moves itself into another
 * session escapes the group; stopping that needs an OS sandbox (cgroups), which riddle does not require.
 */
export async function runProcess(spec: ProcessSpec): Promise<ProcessRun> {
  checkArguments(spec.args);
  const stdout = new OutputCapture(spec.maxOutputBytes);
  const stderr = new OutputCapture(spec.maxOutputBytes);
  const cannotStart = (error: unknown): ProcessRun => ({
    exit: null,
    resources: { cpuMs: null, peakRssBytes: null },
    failure: {
      status: 'harness_error',
      message: `could not start ${spec.command}: ${startFailureMessage(spec.command, spec.args, spec.cwd, error)}`,
    },
    notes: [],
  });
  // child_process rather than execa: execa's layers (its stream handling, promises and checks) cost the worker about
  // two milliseconds of CPU a round, as much as the spawn itself, for nothing riddle uses.
  let subprocess: ChildProcess;
  try {
    subprocess = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env },
      stdio: [spec.stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
  } catch (error) {
    return cannotStart(error);
  }
  // Whatever the subprocess does, its errors are answered here: an error event nobody listens to ends the worker.
  const spawnError = new Promise<unknown>((resolve) => subprocess.on('error', resolve));
  const pid = subprocess.pid;
  if (pid === undefined) return cannotStart(await spawnError);
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    subprocess.once('close', (code, signal) => resolve({ code, signal })),
  );
  if (subprocess.stdin !== null) {
    // A subject that exits, or closes its stdin, before reading its input is not an error of riddle's.
    subprocess.stdin.on('error', () => {});
    subprocess.stdin.end(spec.stdin);
  }
  leftovers.holdGroup(pid);
  const sampler = sampleTree(pid, spec.launcher?.depth ?? 0);
  let stopReason: 'timeout' | 'output_limit' | null = null;
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (reason: 'timeout' | 'output_limit') => {
    if (stopReason !== null) return;
    stopReason = reason;
    terminate(pid, spec.launcher);
    graceTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), spec.killGraceMs);
  };
  const onAbort = () => stop('timeout');
  if (spec.signal.aborted) onAbort();
  else spec.signal.addEventListener('abort', onAbort, { once: true });
  subprocess.stdout?.on('data', (chunk: Buffer) => {
    if (stdout.push(chunk)) stop('output_limit');
  });
  subprocess.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.push(chunk)) stop('output_limit');
  });
  // Descendants left running would keep the output pipes open and outlive the round: end them with the root. A
  // process that left the group can still hold the pipes; stop reading after a moment rather than wait for it.
  let pipesHeld = false;
  let drainTimer: NodeJS.Timeout | undefined;
  subprocess.once('exit', () => {
    // The last reading, of what still runs, before it is killed (the root itself Node has already reaped).
    sampler.stop();
    killGroup(pid, 'SIGKILL');
    drainTimer = setTimeout(() => {
      pipesHeld = true;
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    }, PIPE_DRAIN_MS);
  });
  const result = await closed;
  spec.signal.removeEventListener('abort', onAbort);
  clearTimeout(graceTimer);
  clearTimeout(drainTimer);
  killGroup(pid, 'SIGKILL');
  leftovers.releaseGroup(pid);
  const resources = sampler.stop();
  const exit: ProcessExit = {
    code: result.code,
    signal: result.signal,
    timedOut: stopReason === 'timeout',
    stdout: stdout.finish(),
    stderr: stderr.finish(),
    stopReason,
  };
  const notes = sampler.note !== null ? [sampler.note] : [];
  if (pipesHeld)
    notes.push(
      "a process outside the subject's process group held its output open after it exited; output after that was not read",
    );
  if (sampler.note === null && resources.cpuMs === null)
    notes.push('the process ended before its resources could be sampled');
  const { launcher } = spec;
  const signalled = launcher === undefined || exit.code === null ? undefined : SIGNAL_NAMES.get(exit.code - 128);
  if (launcher !== undefined && signalled !== undefined)
    notes.push(
      `${launcher.name} reports a subject killed by signal n as exit code 128 + n: code ${exit.code} is ${signalled} or the subject's own exit(${exit.code}), which it cannot tell apart`,
    );
  return { exit, resources, failure: failureOf(exit, spec), notes };
}

/** Signal names by number; the first of two names for one number (SIGABRT, not SIGIOT). */
const SIGNAL_NAMES = new Map(
  Object.entries(constants.signals)
    .reverse()
    .map(([name, number]) => [number, name]),
);

/**
 * SIGTERM, so the subject may wind down in the grace period. Under a launcher only the subject's processes get it:
 * the launcher (bwrap) would die of it and tear the sandbox down at once, the subject with it. With no subject
 * process yet, there is nothing to wind down.
 */
function terminate(pid: number, launcher: Launcher | undefined): void {
  const inside = launcher === undefined ? [] : processTree(pid, launcher.depth);
  if (inside.length === 0) {
    killGroup(pid, 'SIGTERM');
    return;
  }
  for (const member of inside) {
    try {
      process.kill(member, 'SIGTERM');
    } catch {
      // It ended in the meantime.
    }
  }
}

function failureOf(exit: ProcessExit, spec: ProcessSpec): RoundFailure | null {
  if (exit.stopReason === 'timeout')
    return {
      status: 'subject_error',
      // A process that handled SIGTERM may exit with a code of its own; a launcher passes a signal on as 128 + n.
      message: `stopped at the attempt's budget (${exit.signal !== null ? `killed with ${exit.signal}` : `exited with code ${exit.code} after SIGTERM`})`,
    };
  if (exit.stopReason === 'output_limit') {
    const stream = exit.stdout.truncated ? 'stdout' : 'stderr';
    return { status: 'subject_error', message: `stopped: ${stream} went past the cap of ${spec.maxOutputBytes} bytes` };
  }
  return null;
}
