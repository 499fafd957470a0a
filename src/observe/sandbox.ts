import {
  chmodSync,
  copyFileSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { leftovers } from './leftovers.js';

/** A fresh folder an attempt runs in, removed when the attempt is done with it. */
export interface Sandbox {
  readonly path: string;
  remove(): Promise<void>;
}

/** Thrown when the Case's fixtures cannot be laid out: a harness failure, never the subject's. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Files up to this size are copied in one synchronous call (see `copyFixtures`); larger ones without blocking. */
const SYNC_COPY_BYTES = 1024 * 1024;
/** Entries copied between two turns given to the event loop, so a fixture of many files never holds it long. */
const ENTRIES_PER_TURN = 256;

/**
 * Copy the fixture folder's contents into `into` as `fs.cp(…, { recursive, errorOnExist, force: false,
 * verbatimSymlinks })` did: files with their mode, folders with theirs (set once their contents are in), symbolic
 * links as links to the same target, anything else (a FIFO, a socket, a device) an error. Small files and the
 * folders' bookkeeping are synchronous calls: each attempt copies its fixtures, and a promise-based call costs the
 * worker several times the CPU of the call itself (fs.cp took about 4 ms of CPU for three small files).
 */
async function copyFixtures(from: string, into: string): Promise<void> {
  const folders: { from: string; into: string; mode: number | null }[] = [{ from, into, mode: null }];
  const modes: { into: string; mode: number }[] = [];
  let copied = 0;
  for (let next = folders.pop(); next !== undefined; next = folders.pop()) {
    for (const dirent of readdirSync(next.from, { withFileTypes: true })) {
      copied += 1;
      if (copied % ENTRIES_PER_TURN === 0) await turn();
      const source = path.join(next.from, dirent.name);
      const target = path.join(next.into, dirent.name);
      if (dirent.isDirectory()) {
        mkdirSync(target);
        folders.push({ from: source, into: target, mode: lstatSync(source).mode });
      } else if (dirent.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
      else if (dirent.isFile()) {
        if (lstatSync(source).size > SYNC_COPY_BYTES) await copyFile(source, target, constants.COPYFILE_EXCL);
        else copyFileSync(source, target, constants.COPYFILE_EXCL);
      } else throw new FixtureError(`could not copy fixtures from ${from}: ${source} is not a file, folder or link`);
    }
    if (next.mode !== null) modes.push({ into: next.into, mode: next.mode });
  }
  // Modes last, deepest first: a read-only folder must still have been written into.
  for (const { into: folder, mode } of modes.reverse()) chmodSync(folder, mode & 0o7777);
}

/** Entries a sandbox may hold to be removed with synchronous calls (see `removeSmallTree`). */
const SYNC_REMOVE_ENTRIES = 256;

/**
 * Remove a folder tree of a few entries with synchronous calls (a promise-based removal costs the worker about twice
 * the CPU, every attempt), links removed, never followed. False, with nothing removed, when it holds more than
 * `maxEntries`; false too when a call fails (a process still writing there, say), whatever was removed by then:
 * `fs.rm` then takes the rest.
 */
export function removeSmallTree(folder: string, maxEntries = SYNC_REMOVE_ENTRIES): boolean {
  const files: string[] = [];
  const folders: string[] = [folder];
  try {
    // A sandbox the subject replaced with a link: listing it would list the link's target.
    if (!lstatSync(folder).isDirectory()) return false;
    for (let at = 0; at < folders.length; at += 1) {
      const dir = folders[at] as string;
      for (const dirent of readdirSync(dir, { withFileTypes: true })) {
        if (files.length + folders.length > maxEntries) return false;
        (dirent.isDirectory() ? folders : files).push(path.join(dir, dirent.name));
      }
    }
    for (const file of files) unlinkSync(file);
    for (const dir of folders.reverse()) rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/**
 * Make a fresh temporary folder and copy the fixture folder into it (symbolic links copied as links). A fixture
 * folder that is missing, is not a folder, or holds something that cannot be copied (a FIFO, a socket, an
 * unreadable file) is a FixtureError, and nothing is left behind.
 */
export async function createSandbox(fixtures: string | null, label: string): Promise<Sandbox> {
  const safe = label.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 40);
  // realpath: on macOS the temp folder is reached through a symlink; subjects should see one canonical path.
  const folder = realpathSync(mkdtempSync(path.join(os.tmpdir(), `riddle-${safe}-`)));
  leftovers.holdFolder(folder);
  const remove = async () => {
    if (!removeSmallTree(folder)) await rm(folder, { recursive: true, force: true, maxRetries: 3 });
    leftovers.releaseFolder(folder);
  };
  if (fixtures !== null) {
    try {
      let info: ReturnType<typeof statSync> | undefined;
      try {
        info = statSync(fixtures);
      } catch {
        throw new FixtureError(`fixture folder ${fixtures} does not exist`);
      }
      if (!info.isDirectory()) throw new FixtureError(`fixtures ${fixtures} is not a folder`);
      await copyFixtures(fixtures, folder);
    } catch (error) {
      await remove();
      throw error instanceof FixtureError
        ? error
        : new FixtureError(`could not copy fixtures from ${fixtures}: ${message(error)}`);
    }
  }
  return { path: folder, remove };
}
