import { createHash, type Hash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  read,
  readlinkSync,
  readSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { fingerprint, sha256, type FileChange } from '../model/index.js';
import { folderEntries } from './folder-entries.js';

/** One file of a snapshot. */
export interface FileEntry {
  /** In bytes (for a symbolic link: the length of its target). */
  size: number;
  sha256: string;
  /** The file's text when it is small and valid UTF-8; null otherwise (kept by hash only). */
  text: string | null;
}

/** Files under a folder by relative, `/`-separated path. */
export type FolderSnapshot = ReadonlyMap<string, FileEntry>;

const utf8 = new TextDecoder('utf-8', { fatal: true });
/**
 * Files up to this size are read in one synchronous call: a promise-based read costs the worker several times the
 * CPU of the read itself for a small file (a thread-pool round trip and its promises), and snapshots run twice an
 * attempt. Larger files are read a chunk at a time without blocking, and never held whole.
 */
const SYNC_READ_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** Entries looked at between two turns given to the event loop, so a folder of many files never holds it long. */
const ENTRIES_PER_TURN = 256;
/**
 * How a file a subject could have replaced is opened: never through a link swapped in (a process that escaped its
 * group may still be running), never waiting on a FIFO swapped in likewise (opening one to read waits for a writer).
 */
export const SUBJECT_FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * What a snapshot reads at most. A subject may leave a workspace of any size: a sparse file of a terabyte takes it a
 * moment to make and riddle an hour to hash, a million empty files a minute to list, and a process still appending to a
 * file would be read for ever.
 */
export interface SnapshotBounds {
  /** Bytes of files read (a file counts by the size its stat gives, and by whatever it grows by while read). */
  bytes: number;
  /** Entries listed: files, links, folders and anything else. */
  entries: number;
}

/** A snapshot of a workspace past its bounds: nothing of it is kept. */
export class SnapshotBoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotBoundError';
  }
}

const UNBOUNDED: SnapshotBounds = { bytes: Number.POSITIVE_INFINITY, entries: Number.POSITIVE_INFINITY };

/**
 * What riddle reads of an attempt's workspace, before the subject runs and after. Far past what a subject's work
 * leaves (a clone of a large repository is a few hundred thousand entries and a few GiB), far short of what a subject
 * can leave to stall its trial.
 */
export const WORKSPACE_BOUNDS: SnapshotBounds = { bytes: 8 * 1024 * 1024 * 1024, entries: 1_000_000 };

const GIB = 1024 * 1024 * 1024;
const inBytes = (bytes: number) =>
  bytes >= GIB ? `${(bytes / GIB).toFixed(bytes % GIB === 0 ? 0 : 1)} GiB` : `${bytes} bytes`;

/** What a snapshot has read so far against its bounds; each step past one throws a SnapshotBoundError. */
class Reading {
  private bytes = 0;
  private entries = 0;

  constructor(private readonly bounds: SnapshotBounds) {}

  entry(): void {
    this.entries += 1;
    if (this.entries > this.bounds.entries)
      throw new SnapshotBoundError(
        `the workspace holds more than ${this.bounds.entries} entries, the most riddle lists of one`,
      );
  }

  take(bytes: number, file: string): void {
    this.bytes += bytes;
    if (this.bytes > this.bounds.bytes)
      throw new SnapshotBoundError(
        `the workspace's files come to more than ${inBytes(this.bounds.bytes)}, the most riddle reads of one (at ${file}, ${inBytes(bytes)})`,
      );
  }
}

function textOf(bytes: Buffer, retainBytes: number): string | null {
  if (bytes.length > retainBytes || bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A regular file of a snapshot's folder with links elsewhere: more links (st_nlink) than the folder holds. A write
 * through such a link changes the file at its other name without a word to a watch of that name's folder (inotify tells
 * the folder of the name written through), so the watches outside the workspaces (outside-writes) are told of it here.
 */
export interface LinkedFile {
  /** Its names in the folder, relative and `/`-separated. */
  paths: string[];
  dev: number;
  ino: number;
}

type LinkListener = (folder: string, files: readonly LinkedFile[]) => void;
const linkListeners = new Set<LinkListener>();

/**
 * Hears of every snapshot in this process whose folder holds a file linked from elsewhere: the watches outside the
 * workspaces have no hand in the attempts' workspaces, which are made and snapshotted by the attempt. Returns the way
 * to stop hearing.
 */
export function hearLinkedFiles(listener: LinkListener): () => void {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
}

/** A file with more than one link, by `dev:ino`, as each was read. */
type Links = Map<string, LinkedFile & { links: number }>;

function noteLinks(links: Links, relative: string, info: Stats): void {
  if (info.nlink < 2) return;
  const key = `${info.dev}:${info.ino}`;
  const known = links.get(key);
  if (known) known.paths.push(relative);
  else links.set(key, { paths: [relative], dev: info.dev, ino: info.ino, links: info.nlink });
}

function tellLinks(folder: string, links: Links): void {
  // A file whose links are all in the folder (a local git clone's objects, `cp -al`) is no way out of it.
  const elsewhere = [...links.values()]
    .filter((file) => file.paths.length < file.links)
    .map(({ paths, dev, ino }) => ({ paths, dev, ino }));
  if (elsewhere.length > 0) for (const listener of linkListeners) listener(folder, elsewhere);
}

function linkEntry(target: string): FileEntry {
  return {
    size: Buffer.byteLength(target),
    sha256: sha256(`symlink:${target}`),
    text: null,
  };
}

/** Read the rest of a large file from `fd` a chunk at a time into the hash; the bytes kept only while few enough. */
async function hashLarge(
  fd: number,
  announced: number,
  retainBytes: number,
  reading: Reading,
  file: string,
): Promise<FileEntry> {
  const hash: Hash = createHash('sha256');
  const kept: Buffer[] = [];
  let size = 0;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const got = await new Promise<number>((resolve, reject) =>
      read(fd, chunk, 0, CHUNK_BYTES, size, (error, bytes) => (error ? reject(error) : resolve(bytes))),
    );
    if (got === 0) break;
    // The announced size was taken before reading; what the file grew by since is taken as it comes.
    if (size + got > announced) reading.take(size + got - Math.max(size, announced), file);
    hash.update(chunk.subarray(0, got));
    size += got;
    if (size <= retainBytes) kept.push(Buffer.from(chunk.subarray(0, got)));
  }
  return {
    size,
    sha256: hash.digest('hex'),
    text: size <= retainBytes ? textOf(Buffer.concat(kept), retainBytes) : null,
  };
}

/** A regular file's entry; a link found in its place (swapped in since the listing) is recorded as the link. */
async function fileEntry(
  full: string,
  relative: string,
  retainBytes: number,
  reading: Reading,
  links: Links,
): Promise<FileEntry | null> {
  let fd: number;
  try {
    fd = openSync(full, SUBJECT_FILE_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return linkEntry(readlinkSync(full));
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
    noteLinks(links, relative, info);
    // Taken before a byte is read: a file past the bounds is not read at all.
    reading.take(info.size, relative);
    if (info.size > SYNC_READ_BYTES) return await hashLarge(fd, info.size, retainBytes, reading, relative);
    const bytes = readAll(fd, info.size, reading, relative);
    return {
      size: bytes.length,
      // One call: a Hash object for each small file cost more than hashing it.
      sha256: sha256(bytes),
      text: textOf(bytes, retainBytes),
    };
  } finally {
    closeSync(fd);
  }
}

/** The whole of a small file: the bytes its stat announced, and whatever it grew by since (read until the end). */
function readAll(fd: number, expected: number, reading: Reading, file: string): Buffer {
  let bytes = Buffer.allocUnsafe(expected + 1);
  let total = 0;
  for (;;) {
    if (total === bytes.length) {
      const larger = Buffer.allocUnsafe(bytes.length * 2);
      bytes.copy(larger);
      bytes = larger;
    }
    const got = readSync(fd, bytes, total, bytes.length - total, total);
    if (got === 0) return bytes.subarray(0, total);
    if (total + got > expected) reading.take(total + got - Math.max(total, expected), file);
    total += got;
  }
}

/**
 * Hash every regular file and symbolic link under `root` (links are recorded by their target, never followed, so
 * a subject cannot make riddle read outside its sandbox). Sockets, FIFOs and devices are skipped. A folder past
 * `bounds` throws a SnapshotBoundError. Files linked from outside the folder are told to `hearLinkedFiles`.
 */
export async function snapshotFolder(
  root: string,
  retainBytes: number,
  bounds: SnapshotBounds = UNBOUNDED,
): Promise<FolderSnapshot> {
  const reading = new Reading(bounds);
  const entries: [string, FileEntry][] = [];
  const folders: { dir: string; relative: string }[] = [{ dir: root, relative: '' }];
  const links: Links = new Map();
  let seen = 0;
  try {
    for (let next = folders.pop(); next !== undefined; next = folders.pop()) {
      // A folder of millions is read a few entries at a time, not listed whole before the bound is reached; a folder
      // its stat cannot size (replaced since it was listed) is read so too.
      const size = lstatSync(next.dir, { throwIfNoEntry: false })?.size ?? Number.POSITIVE_INFINITY;
      for (const dirent of folderEntries(next.dir, size)) {
        seen += 1;
        reading.entry();
        if (seen % ENTRIES_PER_TURN === 0) await turn();
        const full = path.join(next.dir, dirent.name);
        const relative = next.relative === '' ? dirent.name : `${next.relative}/${dirent.name}`;
        if (dirent.isDirectory()) folders.push({ dir: full, relative });
        else if (dirent.isSymbolicLink()) entries.push([relative, linkEntry(readlinkSync(full))]);
        else if (dirent.isFile()) {
          const entry = await fileEntry(full, relative, retainBytes, reading, links);
          if (entry !== null) entries.push([relative, entry]);
        }
      }
    }
  } finally {
    // Told even of a folder past its bounds: a link found there leads out of it all the same.
    if (links.size > 0) tellLinks(root, links);
  }
  return new Map(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Files created, modified and deleted between two snapshots, by path. Deleted files keep their former text. */
export function diffSnapshots(before: FolderSnapshot, after: FolderSnapshot): FileChange[] {
  const changes: FileChange[] = [];
  for (const [file, now] of after) {
    const was = before.get(file);
    if (was === undefined)
      changes.push({
        path: file,
        change: 'created',
        size: now.size,
        sha256Before: null,
        sha256After: now.sha256,
        content: now.text,
      });
    else if (was.sha256 !== now.sha256)
      changes.push({
        path: file,
        change: 'modified',
        size: now.size,
        sha256Before: was.sha256,
        sha256After: now.sha256,
        content: now.text,
      });
  }
  for (const [file, was] of before) {
    if (!after.has(file))
      changes.push({
        path: file,
        change: 'deleted',
        size: was.size,
        sha256Before: was.sha256,
        sha256After: null,
        content: was.text,
      });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Content fingerprint of a folder (paths and file hashes), e.g. to pin a Case's fixtures. */
export async function folderFingerprint(root: string): Promise<string> {
  const snapshot = await snapshotFolder(root, 0);
  return fingerprint([...snapshot].map(([file, entry]) => [file, entry.sha256]));
}
