import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a lock held by a live process is waited for before giving up, in ms: well within Vitest's default hook
 * timeout (10 s), so a run reads riddle's message rather than a hook that timed out.
 */
const HELD_FOR_MS = 5_000;
/** How often a held lock is tried again. */
const RETRY_MS = 10;
/** How long a lock folder may stand without its owner file (being made, or left by an older riddle), in ms. */
const OWNERLESS_FOR_MS = 2_000;

/** Who holds a lock: written into its folder once made, so a lock whose holder died is seen as left behind. */
interface LockOwner {
  pid: number;
  host: string;
}

const OWNER_FILE = 'owner.json';

function ownerOf(lock: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path.join(lock, OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : null;
  } catch {
    return null;
  }
}

/** Whether a process on this machine is still running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a lock another holder has was left behind: its holder on this machine has exited (killed, crashed), or it
 * has had no owner for longer than making one takes.
 */
function leftBehind(lock: string): boolean {
  const owner = ownerOf(lock);
  if (owner) return owner.host === os.hostname() && !processAlive(owner.pid);
  try {
    return Date.now() - statSync(lock).mtimeMs > OWNERLESS_FOR_MS;
  } catch {
    return false;
  }
}

/**
 * Remove a lock left behind. Moved aside first (a rename is atomic): of two processes that both found it left behind,
 * only one moves it; were what it moved a lock just taken afresh by another, it is put back.
 */
function clearLeftBehind(lock: string): void {
  const stale = ownerOf(lock);
  const aside = `${lock}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(lock, aside);
  } catch {
    return;
  }
  const moved = ownerOf(aside);
  if (moved && (moved.pid !== stale?.pid || moved.host !== stale?.host)) {
    try {
      renameSync(aside, lock);
      return;
    } catch {
      // The lock was taken again meanwhile: what was moved aside is no one's now.
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

/** Try to take the lock folder once: true when taken, false when another holder has it. */
function take(lock: string, since: number): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (leftBehind(lock)) {
      clearLeftBehind(lock);
      return false;
    }
    if (Date.now() - since > HELD_FOR_MS) {
      const owner = ownerOf(lock);
      const holder = owner ? `process ${owner.pid} on ${owner.host}` : 'a process that left no owner';
      throw new Error(
        `riddle: ${lock} has been held by ${holder} for ${HELD_FOR_MS / 1000} s; remove the folder if no riddle run is active`,
      );
    }
    return false;
  }
  writeFileSync(path.join(lock, OWNER_FILE), JSON.stringify({ pid: process.pid, host: os.hostname() }));
  return true;
}

function release(lock: string): void {
  rmSync(lock, { recursive: true, force: true });
}

/**
 * Hold a lock folder (`<dir>/<name>.lock`) while a shared file is read and rewritten: trials of several files run in
 * parallel workers. Creating a folder is atomic, so only one holder gets it; one whose holder died is taken over.
 */
export async function withFolderLock<T>(dir: string, name: string, work: () => T): Promise<T> {
  const lock = path.join(dir, `${name}.lock`);
  const since = Date.now();
  while (!take(lock, since)) await sleep(RETRY_MS);
  try {
    return work();
  } finally {
    release(lock);
  }
}

/**
 * `withFolderLock` without the event loop, for the process's `exit` listeners (run/exit-writes), where nothing
 * asynchronous runs any more: the thread sleeps between tries.
 */
export function withFolderLockSync<T>(dir: string, name: string, work: () => T): T {
  const lock = path.join(dir, `${name}.lock`);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const since = Date.now();
  while (!take(lock, since)) Atomics.wait(pause, 0, 0, RETRY_MS);
  try {
    return work();
  } finally {
    release(lock);
  }
}
