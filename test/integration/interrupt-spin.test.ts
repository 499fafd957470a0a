import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, repoRoot, tempDir } from './support.js';

const project = fixture('interruption');
const vitestBin = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');

/** Poll until the condition holds; the bound is a safety net for a loaded machine, not a timing the test relies on. */
async function waitFor(condition: () => boolean, what: string, limitMs = 150_000): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A process's state and parent from /proc/<pid>/stat, or null when it is gone. */
function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Whether a process runs: one that exited but was not reaped yet (a zombie) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  const state = stat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** Every process whose command line satisfies the test, from /proc. */
function processes(test: (pid: number, args: string[]) => boolean): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return test(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
      } catch {
        return false;
      }
    });
}

/** Start the interruption fixture on one trial file in the forks pool, in a process group of its own. */
function startRun(file: string, label: string) {
  const work = tempDir(label);
  const tmp = path.join(work, 'tmp');
  mkdirSync(tmp);
  const log = path.join(work, 'attempts.log');
  writeFileSync(log, '');
  const pidFile = path.join(work, 'worker.pid');
  const marker = `riddle-fixture-marker-${path.basename(work)}`;
  const child = execa(
    process.execPath,
    [vitestBin, 'run', file, '--pool=forks', '--reporter=riddle', `--outputFile.riddle=${path.join(work, 'report')}`],
    {
      cwd: project,
      reject: false,
      all: true,
      detached: true,
      env: {
        NO_COLOR: '1',
        CI: '1',
        TMPDIR: tmp,
        RIDDLE_FIXTURE_PID: pidFile,
        RIDDLE_FIXTURE_LOG: log,
        RIDDLE_FIXTURE_MARKER: marker,
      },
      timeout: 170_000,
    },
  );
  let output = '';
  child.all?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const main = child.pid as number;
  return {
    child,
    main,
    tmp,
    log,
    pidFile,
    marker,
    output: () => output,
    /** The fork workers Vitest's main process started. */
    workers: () => processes((pid, args) => stat(pid)?.ppid === main && args.some((a) => a.endsWith('forks.js'))),
    /** Kill whatever is left (a failed test must not leave a spinning worker behind). */
    cleanUp: (pids: readonly number[]) => {
      for (const pid of [...pids, ...processes((_, args) => args.includes(marker))])
        if (alive(pid)) process.kill(pid, 'SIGKILL');
      if (child.exitCode === null)
        try {
          process.kill(-main, 'SIGKILL');
        } catch {}
    },
  };
}

describe('exiting at once while a subject blocks its fork worker’s event loop', () => {
  it('Ctrl-C twice: exits non-zero and leaves no worker, and no process group of its subject, running', async () => {
    const run = startRun('trials/spin.trial.test.ts', 'interrupt-spin');
    let worker = 0;
    const held = () => processes((_, args) => args.includes(run.marker));
    try {
      // The subject writes its worker's pid just before it spins: from then on, the worker's loop is blocked.
      await waitFor(() => existsSync(run.pidFile) && readFileSync(run.pidFile, 'utf8') !== '', 'the subject to spin');
      worker = Number(readFileSync(run.pidFile, 'utf8'));
      expect(alive(worker)).toBe(true);
      expect(held()).toHaveLength(1);
      // Ctrl-C as a terminal sends it, to the whole process group.
      process.kill(-run.main, 'SIGINT');
      await waitFor(() => run.output().includes('stopping the run'), 'riddle to stop the run');
      process.kill(-run.main, 'SIGINT');
      const result = await run.child;
      expect(result.timedOut, result.all).toBe(false);
      expect(result.exitCode, result.all).not.toBe(0);
      // The kill is asynchronous: the worker may take a moment to be gone.
      await waitFor(() => !alive(worker), 'the worker to be gone', 10_000).catch(() => {});
      expect(alive(worker), `worker ${worker} still runs`).toBe(false);
      // The process group the subject started, as commandSubject would, went with its worker.
      await waitFor(() => held().every((pid) => !alive(pid)), 'its subject group to be gone', 10_000).catch(() => {});
      expect(held().filter(alive), 'subject processes still running').toEqual([]);
    } finally {
      run.cleanUp(worker === 0 ? [] : [worker]);
    }
  }, 200_000);
});

describe('exiting at once on a second SIGTERM to the main process only', () => {
  it('has a worker whose loop is free sweep its subjects and sandboxes and exit, not outlive the run', async () => {
    const run = startRun('trials/stubborn.trial.test.ts', 'interrupt-main-only');
    let workers: number[] = [];
    try {
      await waitFor(() => readFileSync(run.log, 'utf8').includes('start'), 'the subject to start');
      await waitFor(() => processes((_, args) => args.includes(run.marker)).length > 0, "the subject's grandchild");
      workers = run.workers();
      expect(workers).toHaveLength(1);
      process.kill(run.main, 'SIGTERM');
      // The worker is not signalled; its trial is cancelled through Vitest, and its subject ignores the SIGTERM.
      await waitFor(() => readFileSync(run.log, 'utf8').includes('sigterm'), 'the subject to get SIGTERM');
      // The main process's line may reach this pipe after the subject logged its SIGTERM: waited for, not assumed.
      await waitFor(() => run.output().includes('stopping the run'), 'riddle to say it is stopping the run');
      process.kill(run.main, 'SIGTERM');
      const result = await run.child;
      expect(result.exitCode, result.all).not.toBe(0);
      await waitFor(() => workers.every((pid) => !alive(pid)), 'the worker to be gone', 10_000).catch(() => {});
      expect(workers.filter(alive), 'workers still running').toEqual([]);
      // The worker swept what it held before exiting: no subject process, no sandbox.
      expect(processes((_, args) => args.includes(run.marker))).toEqual([]);
      expect(readdirSync(run.tmp).filter((entry) => entry.startsWith('riddle-'))).toEqual([]);
    } finally {
      run.cleanUp(workers);
    }
  }, 200_000);
});
