import { type Dirent, opendirSync, readdirSync } from 'node:fs';

/**
 * A folder's size in bytes up to which it is listed in one call: a folder's size grows with its entries (ext4, xfs,
 * btrfs and tmpfs alike), and this many bytes hold a few thousand at most.
 */
const LIST_WHOLE_BYTES = 64 * 1024;

/**
 * A folder's entries, for a caller that stops at a bound of its own. One whose size (`bytes`, from its stat) says it is
 * small is listed in one call, at half the cost of reading it a few entries at a time; a larger one is read a few
 * entries at a time, so a folder of millions costs no more than the caller's bound. Throws when the folder cannot be
 * read, at the first entry asked for or part-way.
 */
export function* folderEntries(full: string, bytes: number): Generator<Dirent> {
  if (bytes <= LIST_WHOLE_BYTES) {
    yield* readdirSync(full, { withFileTypes: true });
    return;
  }
  const folder = opendirSync(full);
  try {
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) yield entry;
  } finally {
    folder.closeSync();
  }
}
