import { rmSync } from 'node:fs';

/**
 * Process groups and folders an attempt owns while it runs. They are released by the attempt itself; this
 * registry only covers the case where the host process exits first (a cancelled run, a crashed worker), so that no
 * subject process or sandbox outlives riddle.
 */
const groups = new Set<number>();
const folders = new Set<string>();
let hooked = false;

function sweep(): void {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', sweep);
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
