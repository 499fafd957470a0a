import { cp, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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

/**
 * Make a fresh temporary folder and copy the fixture folder into it (symbolic links copied as links). A fixture
 * folder that is missing, is not a folder, or holds something that cannot be copied (a FIFO, a socket, an
 * unreadable file) is a FixtureError, and nothing is left behind.
 */
export async function createSandbox(fixtures: string | null, label: string): Promise<Sandbox> {
  const safe = label.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 40);
  // realpath: on macOS the temp folder is reached through a symlink; subjects should see one canonical path.
  const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), `riddle-${safe}-`)));
  leftovers.holdFolder(folder);
  const remove = async () => {
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
    leftovers.releaseFolder(folder);
  };
  if (fixtures !== null) {
    try {
      const info = await stat(fixtures).catch(() => null);
      if (info === null) throw new FixtureError(`fixture folder ${fixtures} does not exist`);
      if (!info.isDirectory()) throw new FixtureError(`fixtures ${fixtures} is not a folder`);
      await cp(fixtures, folder, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
    } catch (error) {
      await remove();
      throw error instanceof FixtureError
        ? error
        : new FixtureError(`could not copy fixtures from ${fixtures}: ${message(error)}`);
    }
  }
  return { path: folder, remove };
}
