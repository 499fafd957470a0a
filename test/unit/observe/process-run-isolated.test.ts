import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { bubblewrap } from '../../../src/observe/isolation/bubblewrap.js';
import { type ProcessSpec, runProcess } from '../../../src/observe/process-run.js';

/** `command` run under bubblewrap as an isolated command subject is, in a fresh workspace. */
function isolated(command: string, args: string[], signal = new AbortController().signal) {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'riddle-isolated-run-'));
  const launch = bubblewrap.wrap(command, args, {
    workspace,
    writable: [],
    readable: [path.dirname(process.execPath)],
    cwd: workspace,
    network: false,
  });
  const spec: ProcessSpec = {
    command: launch.command,
    args: launch.args,
    launcher: launch.launcher,
    cwd: workspace,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdin: null,
    maxOutputBytes: 4096,
    killGraceMs: 200,
    signal,
  };
  return { workspace, run: runProcess(spec) };
}

/** A Node subject that holds 64 MiB, handles SIGTERM with `onTerm`, and says it is ready with a file. */
const holding = (onTerm: string) => `
  process.on('SIGTERM', () => { ${onTerm} });
  const held = Buffer.alloc(64 * 2 ** 20, 1);
  require('node:fs').writeFileSync('ready', '');
  setInterval(() => { held[0] += 1; }, 1000);`;

/** Stop `command` at its budget once it is ready and has been sampled, and give its run. */
async function stoppedOnceReady(script: string) {
  const budget = new AbortController();
  const { workspace, run } = isolated(process.execPath, ['-e', script], budget.signal);
  // Bounded by the test's timeout; a busy machine only makes it wait longer.
  while (!existsSync(path.join(workspace, 'ready'))) await sleep(20);
  // Longer than the sampler's interval, whose tick, due sooner on the same event loop, comes first.
  await sleep(250);
  budget.abort();
  return run;
}

describe.runIf(process.platform === 'linux')('a process run under bubblewrap', async () => {
  test('bwrap can run here (CI installs it)', async () => {
    expect(await bubblewrap.available()).toEqual({ available: true, detail: 'bwrap runs' });
  });

  test('a subject killed by a signal shows as 128 + n, with a note that the two cannot be told apart', async () => {
    const segv = await isolated('/bin/sh', ['-c', 'kill -SEGV $$']).run;
    expect(segv.exit?.code).toBe(139);
    expect(segv.exit?.signal).toBeNull();
    expect(segv.notes).toContain(
      "bubblewrap reports a subject killed by signal n as exit code 128 + n: code 139 is SIGSEGV or the subject's own exit(139), which it cannot tell apart",
    );
    const plain = await isolated('/bin/sh', ['-c', 'exit 3']).run;
    expect(plain.exit?.code).toBe(3);
    expect(plain.notes.filter((note) => note.includes('128 + n'))).toEqual([]);
  });

  test('at the budget SIGTERM goes to the subject, not bwrap: one ignoring it is killed with SIGKILL after the grace period', async () => {
    const run = await stoppedOnceReady(holding(''));
    expect(run.exit?.signal).toBe('SIGKILL');
    expect(run.failure?.message).toBe("stopped at the attempt's budget (killed with SIGKILL)");
    // The subject's own memory, measured inside the sandbox.
    expect(run.resources.peakRssBytes).toBeGreaterThanOrEqual(64 * 2 ** 20);
  });

  test('a subject that handles SIGTERM winds down in the grace period, and the record says how it ended', async () => {
    const run = await stoppedOnceReady(holding("process.stdout.write('wound down'); process.exit(0);"));
    expect(run.exit?.stdout.text).toBe('wound down');
    expect(run.exit?.code).toBe(0);
    expect(run.failure?.message).toBe("stopped at the attempt's budget (exited with code 0 after SIGTERM)");
  });
});
