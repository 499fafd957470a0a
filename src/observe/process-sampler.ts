import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import type { RoundResources } from './subject.js';

/** /proc reports CPU times in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const MS_PER_TICK = 10;
const PAGE_BYTES = 4096;
const INTERVAL_MS = 50;
/** Every how many samples (200 ms) the tree is searched for new descendants and each high-water mark read. */
const DISCOVER_EVERY = 4;
/** Every how many samples (1 s) each thread list is read again: threads start children, and rarely change. */
const THREADS_EVERY = 20;
const VM_HWM = /^VmHWM:\s+(\d+) kB/m;

const buffer = Buffer.alloc(16 * 1024);

/**
 * Read a /proc file through a descriptor kept open, from its start: an order of magnitude cheaper than opening it
 * again, and a descriptor of a process that has ended fails rather than reading a newcomer that reuses its pid.
 */
function readAt(fd: number): string | null {
  try {
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return null;
  }
}

function open(file: string): number | null {
  try {
    return openSync(file, 'r');
  } catch {
    return null;
  }
}

/** One watched process: descriptors of its stat, status and each thread's children list. */
class Member {
  private readonly children = new Map<string, number>();
  hwmBytes = 0;

  private constructor(
    readonly pid: number,
    private readonly stat: number,
    private readonly status: number | null,
  ) {
    this.readThreads();
  }

  static open(pid: number): Member | null {
    const stat = open(`/proc/${pid}/stat`);
    return stat === null ? null : new Member(pid, stat, open(`/proc/${pid}/status`));
  }

  /** CPU time of the process and its reaped descendants (utime + stime + cutime + cstime) and its RSS; null once ended. */
  sample(): { cpuMs: number; rssBytes: number } | null {
    const stat = readAt(this.stat);
    if (stat === null || stat === '') return null;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    return { cpuMs: (field(14) + field(15) + field(16) + field(17)) * MS_PER_TICK, rssBytes: field(24) * PAGE_BYTES };
  }

  readHighWater(): void {
    const status = this.status === null ? null : readAt(this.status);
    const found = status === null ? null : VM_HWM.exec(status);
    if (found) this.hwmBytes = Math.max(this.hwmBytes, Number(found[1]) * 1024);
  }

  readThreads(): void {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      if (this.children.has(task)) continue;
      const fd = open(`/proc/${this.pid}/task/${task}/children`);
      if (fd !== null) this.children.set(task, fd);
    }
  }

  /** Pids of the children the process's threads have started and not yet lost. */
  childPids(): number[] {
    const pids: number[] = [];
    for (const [task, fd] of this.children) {
      const listed = readAt(fd);
      if (listed === null) {
        // The thread ended.
        closeSync(fd);
        this.children.delete(task);
        continue;
      }
      for (const child of listed.split(' ')) if (child.trim() !== '') pids.push(Number(child));
    }
    return pids;
  }

  close(): void {
    closeSync(this.stat);
    if (this.status !== null) closeSync(this.status);
    for (const fd of this.children.values()) closeSync(fd);
    this.children.clear();
  }
}

/**
 * The root and every live descendant, found through `/proc/<pid>/task/<tid>/children` (each thread lists the
 * children it started), so only the subject's own processes are read rather than every process on the host.
 */
export function processTree(root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i += 1) {
    const member = Member.open(pids[i] ?? -1);
    if (member === null) continue;
    pids.push(...member.childPids());
    member.close();
  }
  return pids;
}

export interface TreeSampler {
  /** Stop sampling and give the figures; null where nothing could be read. */
  stop(): RoundResources;
  /** Why figures are missing, when they are. */
  readonly note: string | null;
}

/**
 * Sample the CPU time and resident memory of a process and its descendants from /proc every 50 ms, through
 * descriptors kept open (new descendants are looked for every 200 ms). Summing `cutime`/`cstime` of live members
 * counts every reaped descendant once (in its reaper), so CPU time covers the whole tree, short-lived descendants
 * included; the last interval before the tree ends is not seen, and a descendant orphaned away from the tree (its
 * parent gone) is no longer followed, so both figures are lower bounds. Peak memory is the larger of the tree's
 * summed RSS at any sample and any single member's own high-water mark.
 */
export function sampleTree(root: number): TreeSampler {
  if (!existsSync(`/proc/${process.pid}/task/${process.pid}/children`)) {
    return {
      stop: () => ({ cpuMs: null, peakRssBytes: null }),
      note: 'CPU time and peak memory need Linux /proc (with task children lists); not measured here',
    };
  }
  const members = new Map<number, Member>();
  let cpuMs: number | null = null;
  let peakRssBytes: number | null = null;
  let round = 0;
  const discover = (rereadThreads: boolean) => {
    // Only the first search starts from the root's pid: later, that pid may belong to some other process.
    const queue = round === 0 ? [root] : [...members.values()].flatMap((m) => m.childPids());
    while (queue.length > 0) {
      const pid = queue.pop() ?? -1;
      if (members.has(pid)) continue;
      const member = Member.open(pid);
      if (member === null) continue;
      members.set(pid, member);
      queue.push(...member.childPids());
    }
    for (const member of members.values()) {
      if (rereadThreads) member.readThreads();
      member.readHighWater();
    }
  };
  const sample = () => {
    if (round % DISCOVER_EVERY === 0) discover(round % THREADS_EVERY === 0 && round > 0);
    round += 1;
    let cpu = 0;
    let rss = 0;
    let hwm = 0;
    for (const [pid, member] of members) {
      const found = member.sample();
      if (found === null) {
        member.close();
        members.delete(pid);
        continue;
      }
      cpu += found.cpuMs;
      rss += found.rssBytes;
      hwm = Math.max(hwm, member.hwmBytes);
    }
    if (members.size === 0) return;
    cpuMs = Math.max(cpuMs ?? 0, cpu);
    peakRssBytes = Math.max(peakRssBytes ?? 0, rss, hwm);
  };
  sample();
  const timer = setInterval(sample, INTERVAL_MS);
  timer.unref();
  return {
    note: null,
    stop() {
      clearInterval(timer);
      for (const member of members.values()) member.close();
      members.clear();
      return { cpuMs, peakRssBytes };
    },
  };
}
