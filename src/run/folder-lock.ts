import { mkdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a lock is waited for before its holder is taken for gone. */
const HELD_FOR_MS = 10_000;
/** How often a held lock is tried again. */
const RETRY_MS = 10;

/** Try to take the lock folder once: true when taken, false when another holder has it. */
function take(lock: string, waited: number): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (waited > HELD_FOR_MS)
      throw new Error(`riddle: ${lock} has been held for 10 s; remove it if no riddle run is active`);
    return false;
  }
}

/**
 * Hold a lock folder (`<dir>/<name>.lock`) while a shared file is read and rewritten: trials of several files run in
 * parallel workers. Creating a folder is atomic, so only one holder gets it.
 */
export async function withFolderLock<T>(dir: string, name: string, work: () => T): Promise<T> {
  const lock = path.join(dir, `${name}.lock`);
  for (let waited = 0; !take(lock, waited); waited += RETRY_MS) await sleep(RETRY_MS);
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}

/**
 * `withFolderLock` without the event loop, for the process's `exit` listeners (run/exit-writes), where nothing
 * asynchronous runs any more: the thread sleeps between tries.
 */
export function withFolderLockSync<T>(dir: string, name: string, work: () => T): T {
  const lock = path.join(dir, `${name}.lock`);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !take(lock, waited); waited += RETRY_MS) Atomics.wait(pause, 0, 0, RETRY_MS);
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}
