import { rmSync } from 'node:fs';

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
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  groups.clear();
  folders.clear();
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

export const leftovers = {
  holdGroup(pid: number): void {
    hook();
    groups.add(pid);
  },
  releaseGroup(pid: number): void {
    groups.delete(pid);
  },
  holdFolder(folder: string): void {
    hook();
    folders.add(folder);
  },
  releaseFolder(folder: string): void {
    folders.delete(folder);
  },
};
