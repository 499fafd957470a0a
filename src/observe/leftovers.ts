import { rmSync } from 'node:fs';
import path from 'node:path';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

/**
 * Process groups and folders an attempt owns while it runs. They are released by the attempt itself; this
 * registry only covers the case where the host process exits first (a cancelled run, a crashed worker), so that no
 * subject process or sandbox outlives riddle.
 */
const groups = new Set<number>();
const folders = new Set<string>();
let hooked = false;

/**
 * Kill every subject process group and remove every folder still held, at once and synchronously: for a host that
 * must exit now (a second Ctrl-C), where the attempts holding them get no chance to release them.
 */
export function sweepLeftovers(): void {
  sweep(groups, folders);
}

function sweep(held: Set<number>, places: Set<string>): void {
  for (const pid of held) killGroup(pid, 'SIGKILL');
  for (const folder of places) rmSync(folder, { recursive: true, force: true });
  held.clear();
  places.clear();
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', sweepLeftovers);
}

/** Send a signal to a whole process group; a group that is already gone is not an error. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Worker threads get no signals and die with the process: when it exits at once (a second Ctrl-C), their own
 * registries are never swept. So a worker thread also announces what it holds on this channel, and the main thread
 * keeps the union (ThreadLeftovers) to sweep on their behalf.
 */
const CHANNEL = 'riddle:leftovers';
type Announcement = { group: number; held: boolean } | { folder: string; held: boolean };
let announcer: BroadcastChannel | null = null;
// Node's BroadcastChannel can be unreferenced; its type in @types/node does not say so.
const unref = (channel: BroadcastChannel) => (channel as BroadcastChannel & NodeJS.RefCounted).unref();

function announce(message: Announcement): void {
  if (isMainThread) return;
  if (announcer === null) {
    announcer = new BroadcastChannel(CHANNEL);
    // Announcing must never keep a worker alive.
    unref(announcer);
  }
  announcer.postMessage(message);
}

export const leftovers = {
  holdGroup(pid: number): void {
    hook();
    groups.add(pid);
    announce({ group: pid, held: true });
  },
  releaseGroup(pid: number): void {
    groups.delete(pid);
    announce({ group: pid, held: false });
  },
  holdFolder(folder: string): void {
    hook();
    folders.add(folder);
    announce({ folder, held: true });
  },
  releaseFolder(folder: string): void {
    folders.delete(folder);
    announce({ folder, held: false });
  },
};

/**
 * In the main thread: what this process's worker threads hold (subject process groups, sandbox and channel folders),
 * from their announcements, so the main thread can sweep it when it must exit before they release it.
 */
export class ThreadLeftovers {
  private readonly channel = new BroadcastChannel(CHANNEL);
  private readonly groups = new Set<number>();
  private readonly folders = new Set<string>();

  constructor() {
    unref(this.channel);
    this.channel.onmessage = (event) => this.note((event as { data: unknown }).data);
  }

  private note(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const { group, folder, held } = message as { group?: unknown; folder?: unknown; held?: unknown };
    // Only what riddle itself holds: a real process group (never 0, 1 or "every process"), a riddle- folder.
    if (typeof group === 'number' && Number.isInteger(group) && group > 1) {
      if (held === true) this.groups.add(group);
      else this.groups.delete(group);
    } else if (typeof folder === 'string' && path.isAbsolute(folder) && path.basename(folder).startsWith('riddle-')) {
      if (held === true) this.folders.add(folder);
      else this.folders.delete(folder);
    }
  }

  /** Kill every process group and remove every folder a worker thread still holds, synchronously. */
  sweep(): void {
    sweep(this.groups, this.folders);
  }

  close(): void {
    this.channel.close();
  }
}
