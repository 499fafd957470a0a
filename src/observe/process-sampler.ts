import { clearInterval, setInterval } from 'node:timers';
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import type { RoundResources } from './subject.js';

/** /proc reports CPU times in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const MS_PER_TICK = 10;
const PAGE_BYTES = 4096;
/**
 * Between samples, in milliseconds. Each wake-up of the worker costs far more than the reads (on a shared 2-core VM,
 * about 0.2 ms of CPU an empty timer tick, and the first read after a sleep several times a warm one): 100 ms keeps
 * the sampler near half a percent of a core, where 50 ms cost about one percent.
 */
const SAMPLE_INTERVAL_MS = 100;
/** Every how many samples (200 ms) the tree is searched for new descendants and each high-water mark read. */
const DISCOVER_EVERY = 2;
/** Every how many samples (1 s) each thread list is read again: threads start children, and rarely change. */
const THREADS_EVERY = 10;
const CLOSING_PAREN = 0x29;
const SPACE = 0x20;
const DIGIT_ZERO = 0x30;
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

  /**
   * CPU time of the process and its reaped descendants (utime + stime + cutime + cstime, in ms) into `cpuMs`, its RSS
   * into `rssBytes`; false once it has ended. Read from the bytes as they come, without making a string of the line.
   */
  sample(into: { cpuMs: number; rssBytes: number }): boolean {
    let length: number;
    try {
      length = readSync(this.stat, buffer, 0, buffer.length, 0);
    } catch {
      return false;
    }
    // The command name may hold spaces and parentheses: fields start after the last ')', at field 3.
    const paren = length === 0 ? -1 : buffer.lastIndexOf(CLOSING_PAREN, length - 1);
    if (paren < 0) return false;
    let field = 2;
    let value = 0;
    let ticks = 0;
    for (let at = paren + 1; at <= length && field <= 24; at += 1) {
      const byte = at < length ? (buffer[at] ?? SPACE) : SPACE;
      if (byte === SPACE) {
        if (field >= 14 && field <= 17) ticks += value;
        else if (field === 24) into.rssBytes = value * PAGE_BYTES;
        field += 1;
        value = 0;
      } else value = value * 10 + (byte - DIGIT_ZERO);
    }
    if (field <= 24) return false;
    into.cpuMs = ticks * MS_PER_TICK;
    return true;
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
 * Sample the CPU time and resident memory of a process and its descendants from /proc every 100 ms, through
 * descriptors kept open (new descendants are looked for every 200 ms); no other process is read. Summing `cutime`/`cstime` of live members
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
  const reading = { cpuMs: 0, rssBytes: 0 };
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
      if (!member.sample(reading)) {
        member.close();
        members.delete(pid);
        continue;
      }
      cpu += reading.cpuMs;
      rss += reading.rssBytes;
      hwm = Math.max(hwm, member.hwmBytes);
    }
    if (members.size === 0) return;
    cpuMs = Math.max(cpuMs ?? 0, cpu);
    peakRssBytes = Math.max(peakRssBytes ?? 0, rss, hwm);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS);
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
