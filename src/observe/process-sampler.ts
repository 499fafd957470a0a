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
const OPENING_PAREN = 0x28;
const CLOSING_PAREN = 0x29;
const SPACE = 0x20;
const DIGIT_ZERO = 0x30;
const VM_HWM = /^VmHWM:\s+(\d+) kB/m;

const buffer = Buffer.alloc(16 * 1024);

interface Reading {
  cpuMs: number;
  rssBytes: number;
  named: boolean;
}

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
    /** Generations below the sampled root (0 for the root). */
    readonly depth: number,
    private readonly stat: number,
    private readonly status: number | null,
  ) {
    this.readThreads();
  }

  static open(pid: number, depth: number): Member | null {
    const stat = open(`/proc/${pid}/stat`);
    return stat === null ? null : new Member(pid, depth, stat, open(`/proc/${pid}/status`));
  }

  /** The command name (what exec gives it), or null once it has ended. */
  name(): string | null {
    const stat = readAt(this.stat);
    return stat === null ? null : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }

  /**
   * CPU time of the process and its reaped descendants (utime + stime + cutime + cstime, in ms) into `cpuMs`, its RSS
   * into `rssBytes`, and whether its command name is `named`; false once it has ended. Read from the bytes as they
   * come, without making a string of the line.
   */
  sample(into: Reading, named: Buffer | null): boolean {
    let length: number;
    try {
      length = readSync(this.stat, buffer, 0, buffer.length, 0);
    } catch {
      return false;
    }
    // The command name may hold spaces and parentheses: fields start after the last ')', at field 3.
    const paren = length === 0 ? -1 : buffer.lastIndexOf(CLOSING_PAREN, length - 1);
    if (paren < 0) return false;
    const nameStart = buffer.indexOf(OPENING_PAREN) + 1;
    into.named = named !== null && buffer.compare(named, 0, named.length, nameStart, paren) === 0;
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
 * children it started), so only the subject's own processes are read rather than every process on the host. With
 * `from`, only those that many generations below the root or deeper (past a launcher).
 */
export function processTree(root: number, from = 0): number[] {
  const found: [number, number][] = [[root, 0]];
  for (let i = 0; i < found.length; i += 1) {
    const [pid, depth] = found[i] ?? [-1, 0];
    const member = Member.open(pid, depth);
    if (member === null) continue;
    for (const child of member.childPids()) found.push([child, depth + 1]);
    member.close();
  }
  return found.filter(([, depth]) => depth >= from).map(([pid]) => pid);
}

export interface TreeSampler {
  /** Take a last reading of what still runs, stop sampling and give the figures; null where nothing was read. */
  stop(): RoundResources;
  /** Why figures are missing, when they are. */
  readonly note: string | null;
}

/**
 * Sample the CPU time and resident memory of a process and its descendants from /proc every 100 ms, and once more at
 * `stop`, through descriptors kept open (new descendants are looked for every 200 ms); no other process is read.
 * Nothing is read as the root starts: it has run nothing yet (its RSS is a few pages), and a root that ends before
 * the first sample is not measured (null) rather than given those figures. Below a launcher (`launcherDepth`
 * generations of an isolation engine's own processes) only the subject's processes count, not the launcher's nor a
 * copy of it that has not yet exec'd the subject (its command name is still the launcher's); until one is found
 * the tree is searched at every sample. Summing `cutime`/`cstime` of live members counts every reaped descendant
 * once (in its reaper), so CPU time covers the whole tree, short-lived descendants included. Node reaps the root
 * before telling riddle it ended, so the root's last interval is never read; a peak between two samples is missed;
 * and a descendant orphaned away from the tree (its parent gone) is no longer followed: both figures are lower
 * bounds. Peak memory is the larger of the tree's summed RSS at any sample and any single member's own high-water
 * mark.
 */
export function sampleTree(root: number, launcherDepth = 0): TreeSampler {
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
  let subjectFound = launcherDepth === 0;
  let stopped = false;
  const reading: Reading = { cpuMs: 0, rssBytes: 0, named: false };
  const adopt = (queue: [number, number][]) => {
    while (queue.length > 0) {
      const [pid, depth] = queue.pop() ?? [-1, 0];
      if (members.has(pid)) continue;
      const member = Member.open(pid, depth);
      if (member === null) continue;
      members.set(pid, member);
      if (depth >= launcherDepth) subjectFound = true;
      for (const child of member.childPids()) queue.push([child, depth + 1]);
    }
  };
  const discover = (rereadThreads: boolean) => {
    adopt([...members.values()].flatMap((m) => m.childPids().map((child): [number, number] => [child, m.depth + 1])));
    for (const member of members.values()) {
      if (rereadThreads) member.readThreads();
      member.readHighWater();
    }
  };
  // Only this first search starts from the root's pid: later, that pid may belong to some other process.
  adopt([[root, 0]]);
  const launcherName = launcherDepth === 0 ? null : (members.get(root)?.name() ?? null);
  const named = launcherName === null ? null : Buffer.from(launcherName, 'latin1');
  const read = () => {
    let cpu = 0;
    let rss = 0;
    let hwm = 0;
    let counted = 0;
    for (const [pid, member] of members) {
      if (!member.sample(reading, member.depth >= launcherDepth ? named : null)) {
        member.close();
        members.delete(pid);
        continue;
      }
      if (member.depth < launcherDepth) continue;
      if (reading.named) {
        // The high-water mark the copy reached is the launcher's, not the subject's it is about to exec.
        member.hwmBytes = 0;
        continue;
      }
      counted += 1;
      cpu += reading.cpuMs;
      rss += reading.rssBytes;
      hwm = Math.max(hwm, member.hwmBytes);
    }
    if (counted === 0) return;
    cpuMs = Math.max(cpuMs ?? 0, cpu);
    peakRssBytes = Math.max(peakRssBytes ?? 0, rss, hwm);
  };
  const timer = setInterval(() => {
    if (round % DISCOVER_EVERY === 0 || !subjectFound) discover(round % THREADS_EVERY === 0 && round > 0);
    round += 1;
    read();
  }, SAMPLE_INTERVAL_MS);
  timer.unref();
  return {
    note: null,
    stop() {
      if (stopped) return { cpuMs, peakRssBytes };
      stopped = true;
      clearInterval(timer);
      discover(false);
      read();
      for (const member of members.values()) member.close();
      members.clear();
      return { cpuMs, peakRssBytes };
    },
  };
}
