import { mkdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Hold a lock folder (`<dir>/<name>.lock`) while a shared file is read and rewritten: trials of several files run in
 * parallel workers. Creating a folder is atomic, so only one holder gets it.
 */
export async function withFolderLock<T>(dir: string, name: string, work: () => T): Promise<T> {
  const lock = path.join(dir, `${name}.lock`);
  for (let waited = 0; ; waited += 10) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (waited > 10_000)
        throw new Error(`riddle: ${lock} has been held for 10 s; remove it if no riddle run is active`);
      await sleep(10);
    }
  }
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}
