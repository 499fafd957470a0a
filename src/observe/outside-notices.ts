import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import {
  closeSync,
  type Dirent,
  type FSWatcher,
  futimesSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmdirSync,
  rmSync,
  type Stats,
  unlinkSync,
  watch,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { folderEntries } from './folder-entries.js';

/**
 * The operating system's change notifications (inotify, through `fs.watch`) for the places outside the workspaces,
 * set up once per process and shared by every trial in it, so that watching a project of thousands of files costs a
 * trial two marks rather than two walks that look at every file.
 *
 * Why it can be trusted to place a change between two moments: every watch of a process reads one notification queue
 * (one inotify instance per event loop), which the kernel fills in the order things happened and Node hands on in
 * that order. A moment is marked by touching a file of riddle's own that is watched too (a *mark*): a change made
 * before the mark was touched is handed on before the mark, one made after it, after. What is not told: which process
 * wrote. A queue that overflowed drops notifications without a word, so a batch as long as the queue's limit loses
 * the feeds, and the trials watching them say that not every entry was seen.
 */

/** A file-like entry's existence before and after one notification, shared by every watch listening. */
export interface Notice {
  readonly path: string;
  /** Believed to exist before the change. */
  readonly before: boolean;
  /** Believed to exist after it: at the batch's end, the last notice of an entry gets its state as it was read. */
  after: boolean;
}

/** A root as the feed sees it: plain data, so that the trials of a process (and Vitest's re-imports) share one feed. */
export interface FeedRoot {
  path: string;
  /** 1 for the entries directly in it (a folder there counts as an entry); null for the whole tree. */
  depth: 1 | null;
  /** Entry names never looked at or into, wherever they are (node_modules, .git). */
  skipNames: readonly string[];
  /** Folders (relative, `/`-separated) never looked at or into. */
  skipFolders: readonly string[];
  /** Entries listed when the feed starts at most: folders past it are not watched, and the feed says so. */
  maxEntries: number;
}

/** Whether an entry (relative, `/`-separated) is left out of a root. */
export function skipped(root: Pick<FeedRoot, 'skipNames' | 'skipFolders'>, relative: string): boolean {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  return (
    root.skipNames.includes(name) ||
    root.skipFolders.some((folder) => relative === folder || relative.startsWith(`${folder}/`))
  );
}

/** What listens to the stream: an open trial's watch. */
export interface NoticeListener {
  /** A notice about an entry under one of the feeds it reads. */
  notice(feed: Feed, notice: Notice): void;
  /** A mark this process made has come through. */
  marked(mark: number): void;
  /** The end of a batch: every notice in it has its final `after`. */
  settled(): void;
  /**
   * The feed did not tell every change: it was lost (an overflow, a failed watch, a mark that never came), or a folder
   * made meanwhile held more entries than its bound leaves room for and is not watched.
   */
  missed(feed: Feed, why: string): void;
}

interface Folder {
  watcher: FSWatcher;
  ino: number;
  /** Entries in it: true for folders watched as part of the tree. */
  entries: Map<string, boolean>;
}

/**
 * A folder's entries, or null once there are more than `room` (folderEntries: a folder of a million files costs no
 * more than the bound). Watching a project of a thousand folders is that many listings for every test file's worker.
 * A folder that cannot be read is listed as empty: what is made in it later is told.
 */
function listUpTo(full: string, room: number, bytes: number): Dirent[] | null {
  const entries: Dirent[] = [];
  try {
    for (const entry of folderEntries(full, bytes)) {
      if (entries.length >= room) return null;
      entries.push(entry);
    }
  } catch {
    // unreadable, at once or part-way: what was read is listed
  }
  return entries;
}

/** An entry's lstat, or undefined when it is gone or cannot be looked at. */
function statOf(full: string): Stats | undefined {
  try {
    return lstatSync(full, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const joined = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);

/** One root's notifications, kept for the process's life once started. */
export class Feed {
  /** Folders past the entry bound were not watched. */
  truncated = false;
  lostWhy: string | null = null;
  private readonly folders = new Map<string, Folder>();
  /** File-like entries believed to exist. In a depth-1 root every entry is one. */
  private readonly existing = new Set<string>();
  /** The last notice of each path in the batch being read, and whether the entry existed when it was read. */
  private readonly lastInBatch = new Map<string, { notice: Notice; exists: boolean }>();
  private listed = 0;
  /** Folders of the tree past the entry bound, not watched: what happens to them is not told. */
  private readonly unwatched = new Set<string>();
  /** Notices told so far: the inode index is made again only when some came since (see `whereIs`). */
  private toldCount = 0;
  /** Each file's path by `dev:ino`, as of `indexedAt`; null until first asked. */
  private inodes: Map<string, string> | null = null;
  private indexedAt = 0;

  constructor(
    readonly root: FeedRoot,
    readonly key: string,
    private readonly stream: NoticeStream,
  ) {
    // Folders of the tree in name order, breadth first, as a walk takes them: each is watched before it is listed, so
    // an entry made meanwhile is either listed or told.
    const queue = [''];
    try {
      for (let at = 0; at < queue.length; at += 1) {
        const folder = queue[at] as string;
        if (this.listed >= root.maxEntries) {
          this.truncated = true;
          for (const left of queue.slice(at)) this.unwatched.add(left);
          break;
        }
        for (const inner of this.add(folder, false)) queue.push(inner);
      }
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Watches and lists a folder; returns its folders to walk into (none in a depth-1 root). */
  private add(folder: string, tell: boolean): string[] {
    const full = path.join(this.root.path, folder);
    const info = lstatSync(full, { throwIfNoEntry: false });
    if (!info?.isDirectory()) return []; // gone already: its removal is told
    // Not caught: a folder that cannot be watched (out of watches) leaves the feed unable to tell what happens in it.
    const watcher = watch(full, { persistent: false }, (type, name) => this.stream.arrived(this, folder, type, name));
    const { ino } = info;
    watcher.on('error', () => this.stream.lose(this, `the watch of ${folder || 'the root'} failed`));
    const entries = new Map<string, boolean>();
    this.folders.set(folder, { watcher, ino, entries });
    const inner: string[] = [];
    const innerOfRoot = this.root.depth === 1 && folder === '';
    const dirents = listUpTo(full, Math.max(0, this.root.maxEntries - this.listed), info.size);
    if (dirents === null) {
      // More entries than the bound leaves room for: not watched, as a walk would stop in it. A root that big is
      // walked instead (the caller is told by the throw).
      watcher.close();
      this.folders.delete(folder);
      if (folder === '') throw new Error(`${full} holds more than ${this.root.maxEntries} entries`);
      this.unwatched.add(folder);
      this.truncated = true;
      if (tell) this.stream.missed(this, `${folder} holds more entries than the bound leaves room for`);
      return [];
    }
    for (const dirent of dirents) {
      const relative = joined(folder, dirent.name);
      if (skipped(this.root, relative)) continue;
      this.listed += 1;
      const tree = this.root.depth === null && dirent.isDirectory();
      entries.set(dirent.name, tree);
      if (tree) inner.push(relative);
      else {
        this.existing.add(relative);
        if (tell) this.tell(relative, false, true);
      }
      // A depth-1 root's folders are watched for entries made or removed in them, which change their stamp.
      if (innerOfRoot && dirent.isDirectory()) this.watchStampOf(relative);
    }
    if (tell) for (const folder of inner) for (const deeper of this.add(folder, true)) inner.push(deeper);
    return inner;
  }

  /** A depth-1 root's folder: an entry made, moved or removed in it changes its modification time. */
  private watchStampOf(relative: string): void {
    const full = path.join(this.root.path, relative);
    const info = lstatSync(full, { throwIfNoEntry: false });
    if (!info?.isDirectory()) return; // gone already: its removal is told in the root
    const watcher = watch(full, { persistent: false }, (type) => {
      if (type === 'rename') this.stream.arrived(this, '', 'stamp', relative);
    });
    watcher.on('error', () => this.stream.lose(this, `the watch of ${relative} failed`));
    this.folders.set(relative, { watcher, ino: info.ino, entries: new Map() });
  }

  /** `exists`: the entry's state when the notification was read, which its last notice in the batch ends with. */
  private tell(relative: string, before: boolean, after: boolean, exists = after): void {
    const notice: Notice = { path: relative, before, after };
    this.toldCount += 1;
    if (after) this.existing.add(relative);
    else this.existing.delete(relative);
    this.lastInBatch.set(relative, { notice, exists });
    this.stream.told(this, notice);
  }

  /** Stops watching a folder of the tree and everything under it, telling its entries removed. */
  private remove(folder: string): void {
    const gone = this.folders.get(folder);
    if (!gone) return;
    gone.watcher.close();
    this.folders.delete(folder);
    for (const [name, isFolder] of gone.entries) {
      const relative = joined(folder, name);
      if (isFolder) this.remove(relative);
      else if (this.existing.has(relative)) this.tell(relative, true, false);
    }
  }

  /** One notification: `name` in `folder` (`stamp`: an entry made or removed inside the depth-1 root's folder `name`). */
  read(folder: string, type: string, name: string | null): void {
    if (type === 'stamp') {
      if (name !== null && this.existing.has(name)) this.tell(name, true, true);
      return;
    }
    const home = this.folders.get(folder);
    if (!home) return; // a folder removed since
    if (name === null) {
      this.stream.lose(this, `a notification in ${folder || 'the root'} named no entry`);
      return;
    }
    const relative = joined(folder, name);
    if (skipped(this.root, relative)) return;
    const full = path.join(this.root.path, relative);
    const info = lstatSync(full, { throwIfNoEntry: false });
    // What happens to a watched folder itself is told in it under its own name (its removal, its mode): the parent
    // tells what matters of it, so such a notification is not read as an entry of that name inside.
    if (info === undefined && !home.entries.has(name) && path.basename(path.join(this.root.path, folder)) === name)
      return;
    if (this.unwatched.has(relative)) {
      if (info?.isDirectory()) return;
      this.unwatched.delete(relative); // removed, or replaced by a file: from now on an entry like any other
      home.entries.delete(name);
      if (info === undefined) return;
    }
    const wasFolder = home.entries.get(name) === true;
    const isFolder = this.root.depth === null && info?.isDirectory() === true;
    if (wasFolder && (!isFolder || this.folders.get(relative)?.ino !== info?.ino)) {
      this.remove(relative);
      home.entries.delete(name);
      if (info === undefined) return; // a folder removed, not an entry
    }
    if (isFolder) {
      if (this.existing.has(relative)) this.tell(relative, true, false);
      if (!this.folders.has(relative)) {
        home.entries.set(name, true);
        this.add(relative, true);
      }
      return;
    }
    const believed = this.existing.has(relative);
    // Whether it exists as this notification is read: the entry's state after its last notification in the batch, since
    // nothing in this process writes while a batch is read (a notification made meanwhile elsewhere is in the next one).
    if (type === 'change') {
      // A change is made to an entry that exists: a belief that it did not was wrong since its last notice. Whether
      // it exists now is not asked: a later removal (of it or of its folder) is told by a notification of its own.
      const last = this.lastInBatch.get(relative);
      if (!believed && last) last.notice.after = true;
      home.entries.set(name, false);
      this.tell(relative, believed || last !== undefined, true);
      return;
    }
    const exists = info !== undefined;
    if (exists) home.entries.set(name, false);
    else home.entries.delete(name);
    this.tell(relative, believed, !believed, exists);
    if (this.root.depth === 1) this.restamp(relative, info);
  }

  /** Keeps a depth-1 root's folder watched for its stamp while it is the same folder, and only then. */
  private restamp(relative: string, info: Stats | undefined): void {
    const watched = this.folders.get(relative);
    const isFolder = info?.isDirectory() === true;
    if (watched && (!isFolder || watched.ino !== info?.ino)) {
      watched.watcher.close();
      this.folders.delete(relative);
    }
    if (isFolder && !this.folders.has(relative)) this.watchStampOf(relative);
  }

  /**
   * The batch's end: each path's last notice ends with the state the entry was in when it was read. Where notifications
   * alone mislead (an entry moved over another is told once, like a removal), this puts it right.
   */
  settle(): void {
    for (const [relative, { notice, exists }] of this.lastInBatch) {
      notice.after = exists;
      if (exists) this.existing.add(relative);
      else this.existing.delete(relative);
    }
    this.lastInBatch.clear();
  }

  /**
   * Which of its files this file (device, inode) is, or null when none within its entry bound is. A link made to one of
   * them tells no folder watch, so the first ask reads every file's inode (an lstat each, at most `maxEntries`) into an
   * index; later asks read the index, made again only when notices have come since (a file made, moved or removed).
   */
  whereIs(dev: number, ino: number): string | null {
    const key = `${dev}:${ino}`;
    const known = this.inodes?.get(key);
    if (known !== undefined) {
      const info = statOf(path.join(this.root.path, known));
      if (info?.dev === dev && info.ino === ino) return known;
    } else if (this.inodes !== null && this.indexedAt === this.toldCount) return null;
    const inodes = new Map<string, string>();
    let looked = 0;
    for (const relative of this.existing) {
      if (looked >= this.root.maxEntries) break;
      looked += 1;
      const info = statOf(path.join(this.root.path, relative));
      if (info?.isFile()) inodes.set(`${info.dev}:${info.ino}`, relative);
    }
    this.inodes = inodes;
    this.indexedAt = this.toldCount;
    return inodes.get(key) ?? null;
  }

  close(): void {
    for (const folder of this.folders.values()) folder.watcher.close();
    this.folders.clear();
  }
}

/** Feeds' keys by root object: a trial's roots are the same objects as the last trial's (defaultOutsideRoots). */
const feedKeys = new WeakMap<Omit<FeedRoot, 'maxEntries'>, string>();

function feedKey(root: Omit<FeedRoot, 'maxEntries'>, maxEntries: number): string {
  let key = feedKeys.get(root);
  if (key === undefined) {
    key = JSON.stringify([root.path, root.depth, [...root.skipNames].sort(), [...root.skipFolders].sort()]);
    feedKeys.set(root, key);
  }
  return `${maxEntries} ${key}`;
}

/** How long a mark may take to come through before the feeds are taken as lost: far beyond a loop's turn. */
const MARK_PATIENCE_MS = 5000;

/** The process's notification stream: its feeds, its marks, and the watches listening. */
export class NoticeStream {
  private readonly feeds = new Map<string, Feed>();
  private readonly listeners = new Set<NoticeListener>();
  /** The two files touched as marks, open and already removed (nothing is left behind however the process ends). */
  private readonly markFiles: number[] = [];
  private readonly markWatchers: FSWatcher[] = [];
  /** Lost its order (an overflow, a mark that never came): a new stream is made for the next trial. */
  broken = false;
  private issued = 0;
  private arrivedMarks = 0;
  private inBatch = 0;
  /** Notifications in one batch that mean the queue may have overflowed (its limit, read from the kernel). */
  private readonly overflowAt: number;
  private readonly waiting: { mark: number; resolve: () => void; timer: NodeJS.Timeout }[] = [];

  /** `overflowAt`: the queue's limit, read from the kernel unless given (tests give a small one). */
  constructor(overflowAt = queueLimit()) {
    this.overflowAt = overflowAt;
    // Each mark file is watched through its descriptor (/proc/self/fd), so it can be removed at once: a process killed
    // by a signal leaves no folder behind in the temporary folder.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'riddle-marks-'));
    try {
      for (const name of ['a', 'b']) {
        const file = path.join(folder, name);
        this.markFiles.push(openSync(file, 'w'));
        unlinkSync(file);
      }
    } finally {
      // Empty once both marks are unlinked: rmdir, a tenth of what a recursive removal costs a worker's first trial.
      try {
        rmdirSync(folder);
      } catch {
        rmSync(folder, { recursive: true, force: true });
      }
    }
    try {
      for (const fd of this.markFiles) {
        const watcher = watch(`/proc/self/fd/${fd}`, { persistent: false }, () => this.markArrived());
        watcher.on('error', () => this.loseAll('the watch of its marks failed'));
        this.markWatchers.push(watcher);
      }
    } catch (error) {
      // No notifications to be had (out of inotify instances, say): nothing of the stream is left open.
      this.loseAll('its marks could not be watched');
      throw error;
    }
  }

  /** The feed of a root, started now when this process has none (null when it cannot be watched). */
  feed(root: Omit<FeedRoot, 'maxEntries'>, maxEntries: number): Feed | null {
    const key = feedKey(root, maxEntries);
    const known = this.feeds.get(key);
    if (known && known.lostWhy === null) return known;
    try {
      const feed = new Feed({ ...root, maxEntries }, key, this);
      this.feeds.set(key, feed);
      return feed;
    } catch {
      return null; // out of watches (ENOSPC) or the like: the caller walks instead
    }
  }

  listen(listener: NoticeListener): void {
    this.listeners.add(listener);
  }

  unlisten(listener: NoticeListener): void {
    this.listeners.delete(listener);
  }

  /**
   * Marks this moment in the stream; its number comes back through `marked` once every notification of a change made
   * before it has. Marks alternate between two files: the kernel folds a notification into the one before it when
   * they are the same, and two marks in a row with nothing between would come through as one.
   */
  mark(): number {
    this.issued += 1;
    if (this.broken) return this.issued;
    const when = this.issued / 1000;
    try {
      futimesSync(this.markFiles[this.issued % 2] as number, when, when);
    } catch {
      this.loseAll('its marks could not be made');
    }
    return this.issued;
  }

  /** Resolves once `mark` has come through and its batch settled, or the feeds were lost. */
  whenThrough(mark: number): Promise<void> {
    if (this.broken || (mark <= this.arrivedMarks && this.inBatch === 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.loseAll(`a mark did not come through within ${MARK_PATIENCE_MS} ms`);
      }, MARK_PATIENCE_MS);
      this.waiting.push({ mark, resolve, timer });
    });
  }

  arrived(feed: Feed, folder: string, type: string, name: string | null): void {
    if (!this.counted() || feed.lostWhy !== null) return;
    try {
      feed.read(folder, type, name);
    } catch (error) {
      this.lose(feed, `a notification could not be read: ${(error as Error).message}`);
    }
  }

  told(feed: Feed, notice: Notice): void {
    for (const listener of this.listeners) listener.notice(feed, notice);
  }

  lose(feed: Feed, why: string): void {
    if (feed.lostWhy !== null) return;
    feed.lostWhy = why;
    feed.close();
    this.feeds.delete(feed.key);
    this.missed(feed, why);
  }

  missed(feed: Feed, why: string): void {
    for (const listener of this.listeners) listener.missed(feed, why);
  }

  /** The stream can no longer place changes between marks: its feeds are lost, and the next trial starts anew. */
  private loseAll(why: string): void {
    if (this.broken) return;
    this.broken = true;
    for (const watcher of this.markWatchers) watcher.close();
    for (const fd of this.markFiles.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // closed already
      }
    }
    for (const feed of [...this.feeds.values()]) this.lose(feed, why);
    for (const wait of this.waiting.splice(0)) {
      clearTimeout(wait.timer);
      wait.resolve();
    }
  }

  private markArrived(): void {
    if (!this.counted()) return;
    this.arrivedMarks += 1;
    for (const listener of this.listeners) listener.marked(this.arrivedMarks);
  }

  /** Counts a notification into the batch being read; false once the batch may have overflowed the queue. */
  private counted(): boolean {
    if (this.inBatch === 0) setImmediate(() => this.endBatch());
    this.inBatch += 1;
    if (this.inBatch < this.overflowAt) return true;
    if (this.inBatch === this.overflowAt) this.loseAll(`over ${this.overflowAt} notifications came at once`);
    return false;
  }

  private endBatch(): void {
    this.inBatch = 0;
    for (const feed of this.feeds.values()) feed.settle();
    for (const listener of this.listeners) listener.settled();
    for (let at = this.waiting.length - 1; at >= 0; at -= 1) {
      const wait = this.waiting[at];
      if (!wait || wait.mark > this.arrivedMarks) continue;
      this.waiting.splice(at, 1);
      clearTimeout(wait.timer);
      wait.resolve();
    }
  }
}

function queueLimit(): number {
  try {
    const limit = Number.parseInt(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10);
    return Number.isSafeInteger(limit) && limit > 0 ? limit : 16384;
  } catch {
    return 16384;
  }
}

const STREAM = Symbol.for('riddle.outside-notices/1');

/**
 * The process's stream, made at first use; null where notifications do not keep their order across folders (only
 * Linux's inotify is relied on) or cannot be set up. Kept on the global object so Vitest's re-imports of riddle in
 * one process share it rather than each watching the project again.
 */
export function noticeStream(): NoticeStream | null {
  if (process.platform !== 'linux') return null;
  const holder = globalThis as { [STREAM]?: NoticeStream | null };
  if (holder[STREAM] === undefined || holder[STREAM]?.broken) {
    try {
      holder[STREAM] = new NoticeStream();
    } catch {
      holder[STREAM] = null;
    }
  }
  return holder[STREAM] ?? null;
}
