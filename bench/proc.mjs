// How the benchmarks run Vitest, what they read from /proc and the disk, how they print milliseconds, and how they install riddle.
import { spawn } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  statfsSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** USER_HZ: /proc reports CPU time in ticks of 10 ms. */
const MS_PER_TICK = 10;

/** CPU of this process's reaped descendants (cutime + cstime), in ms: a finished child's whole tree lands here. */
export function childrenCpuMs() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * MS_PER_TICK;
}

/** Pids of a process and all its descendants, following /proc/<pid>/task/<tid>/children. */
export function tree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i += 1) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const children = readFileSync(`/proc/${pids[i]}/task/${tid}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(' ').map(Number));
      } catch {
        // the task ended between listing and reading
      }
    }
  }
  return pids;
}

/** Bytes of every file under a folder (0 when it does not exist). */
export function folderBytes(dir) {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
  }
  return total;
}

export const fmt = (ms) => (Math.abs(ms) >= 100 ? ms.toFixed(0) : Math.abs(ms) >= 1 ? ms.toFixed(2) : ms.toFixed(3));

/**
 * A module of a built copy of riddle by its path under src (`observe/process-sampler.js`): from tsc's modules in
 * build/modules since dist holds the bundled entry points only (scripts/bundle.mjs), from dist in older copies.
 */
export function builtModule(riddleRoot, relative) {
  const modules = path.join(riddleRoot, 'build', 'modules', relative);
  return pathToFileURL(existsSync(modules) ? modules : path.join(riddleRoot, 'dist', relative)).href;
}

/**
 * Install the riddle built at `riddleRoot` into `dir/node_modules/riddle` as a user has it: a package under
 * node_modules (what `npm pack` ships: package.json, dist, schema), which Vite externalises. Linked to the checkout
 * instead, Vite would transform every module of riddle and run it through its module runner in both processes, a
 * cost no user pays.
 */
export function installRiddle(riddleRoot, dir) {
  const modules = path.join(dir, 'node_modules');
  const installed = path.join(modules, 'riddle');
  rmSync(installed, { recursive: true, force: true });
  for (const part of ['package.json', 'dist', 'schema'])
    cpSync(path.join(riddleRoot, part), path.join(installed, part), { recursive: true });
  // Outside the checkout, riddle's dependencies (and Vitest) are not found by walking up: each is linked beside it.
  if (path.relative(riddleRoot, dir).startsWith('..'))
    for (const name of readdirSync(path.join(riddleRoot, 'node_modules'))) {
      const link = path.join(modules, name);
      if (name !== 'riddle' && name !== '.bin' && !existsSync(link))
        symlinkSync(path.join(riddleRoot, 'node_modules', name), link);
    }
}

/** Free bytes a memory-backed folder needs to hold the workloads' artifacts (100,000 attempts write about 250 MB). */
const WORK_ROOM = 2 ** 30;

/**
 * Where workloads run unless told: /dev/shm where there is one with room (a container's is often 64 MB), else the
 * system's temporary folder. See bench/run.mjs on why a memory-backed folder.
 */
export function defaultWorkRoot() {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= WORK_ROOM) return '/dev/shm';
  } catch {
    // no /dev/shm here
  }
  return os.tmpdir();
}

/** Process groups of the `vitest run`s under way (runVitest), by their leader's pid. */
const running = new Set();

/**
 * Remove the workload folders however the run ends: a normal end, an error, or Ctrl-C and SIGTERM (exit 130), the
 * `vitest run` under way killed first. They may sit in memory (/dev/shm), where a run stopped part-way would otherwise
 * leave hundreds of megabytes.
 */
export function removeAtExit(folders) {
  process.on('exit', () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
}

/**
 * CPU per file created in `dir` as riddle writes an Outcome (a temporary file written, closed and renamed into place),
 * in ms: the median of five rounds of 200. Every trial pays it once, at the file system's price: 0.015 ms in memory,
 * 0.04 to 0.98 ms on this machine's disk in one folder minutes apart (bench/README.md, seventeenth round).
 */
export function fileCreationMs(dir) {
  const probe = path.join(dir, `file-probe-${process.pid}`);
  mkdirSync(probe, { recursive: true });
  const text = 'x'.repeat(4096);
  const rounds = [];
  try {
    for (let round = 0; round < 5; round += 1) {
      const before = process.cpuUsage();
      for (let i = 0; i < 200; i += 1) {
        const file = path.join(probe, `r${round}-${i}.json`);
        const out = openSync(`${file}.tmp`, 'w');
        writeSync(out, text);
        closeSync(out);
        renameSync(`${file}.tmp`, file);
      }
      const used = process.cpuUsage(before);
      rounds.push((used.user + used.system) / 1000 / 200);
    }
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
  return rounds.sort((a, b) => a - b)[2];
}

/**
 * `vitest run` in a workload folder, colours off, its output gathered; `sample(pid)` is called every `everyMs` while
 * it runs. Resolves once it exited 0 (with its output and the moment it exited); rejects with the output's end
 * otherwise.
 */
export function runVitest(vitestBin, dir, env, { everyMs, sample }) {
  return new Promise((resolve, reject) => {
    // A process group of its own, which removeAtExit's handlers kill whole (Vitest and its workers) before removing
    // the folders they write in.
    const child = spawn(process.execPath, [vitestBin, 'run'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child.pid);
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setInterval(() => sample(child.pid), everyMs);
    child.on('error', (error) => {
      clearInterval(timer);
      running.delete(child.pid);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      running.delete(child.pid);
      if (code !== 0) reject(new Error(`vitest run in ${dir} exited ${code}:\n${output.slice(-3000)}`));
      else resolve({ output, exitedAt: Date.now(), pid: child.pid });
    });
  });
}

/**
 * CPU by thread of a measured run (Linux): bench/thread-cpu.mjs, imported into the run's Node processes, notes each
 * one's main thread and whole process as it exits (Vitest's main process; its workers are stopped without an exit, so
 * a workload's own afterAll notes the worker's, see bench/run.mjs PHASE).
 */
export const threadCpuOf = {
  /** The environment that has a run's processes note their CPU by thread into `file`. */
  env(file) {
    if (process.platform !== 'linux') return {};
    const hook = `--import=${pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'thread-cpu.mjs')).href}`;
    return { BENCH_THREADS: file, NODE_OPTIONS: [process.env.NODE_OPTIONS, hook].filter(Boolean).join(' ') };
  },
  /** The main process's line of `file` ({ threadMs, processMs }), or null. */
  read(file, pid) {
    if (!existsSync(file)) return null;
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    return lines.find((l) => l.pid === pid) ?? null;
  },
  /** Both processes' CPU as main thread and other threads, or null when either is unknown. */
  split(worker, main) {
    if (!worker || !main) return null;
    return {
      workerMain: worker.threadMs,
      workerOthers: worker.processMs - worker.threadMs,
      mainMain: main.threadMs,
      mainOthers: main.processMs - main.threadMs,
    };
  },
};
