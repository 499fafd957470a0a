import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OutsideWrite, OutsideWrites, WatchedRoot } from '../model/outside-writes.js';
import { hearLinkedFiles, type LinkedFile } from './file-snapshot.js';
import {
  type Feed,
  type FeedRoot,
  type Notice,
  type NoticeListener,
  type NoticeStream,
  noticeStream,
  skipped,
} from './outside-notices.js';
import type { Subject } from './subject.js';

/** Entries walked per root and walk at most, by default: it bounds what one walk costs. */
export const DEFAULT_OUTSIDE_ENTRIES = 5000;
/** Changes listed in the record at most; the rest are counted. */
const MAX_LISTED_CHANGES = 100;
/** Project folders that are not the subject's to change and that churn by themselves (caches, riddle's own files). */
const PROJECT_SKIPS = ['node_modules', '.git', '.riddle', 'riddle-report'];

/** A root to watch: a tree (`depth` null) or only its own entries (`depth` 1), less what is not the subject's. */
export interface OutsideRoot extends Omit<FeedRoot, 'maxEntries'> {
  name: WatchedRoot['name'];
}

interface Stamp {
  mtimeMs: number;
  size: number;
  dev: number;
  ino: number;
}

interface Walk {
  entries: Map<string, Stamp>;
  truncated: boolean;
  /** Each entry's path by `dev:ino`, made when a linked file is first looked for in this walk. */
  inodes?: Map<string, string>;
}

type Change = { path: string; change: OutsideWrite['change'] };

const within = (parent: string, child: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

const byPath = (a: Change, b: Change) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The places an unisolated subject could write to that matter: the project folder (a tree, without node_modules,
 * .git, riddle's own folders, and the temporary folder when it sits inside), and the entries directly in the home
 * folder. The temporary folder is left out: the whole machine writes there (other tests and workers, riddle's own
 * sandboxes), so what appears in it cannot be read as the subject's, and on a busy machine it holds thousands of
 * entries. `ownFolders` (absolute) are riddle's too and left out wherever they sit in the project: the report folder
 * under any name, where every trial's attempts are written while it runs.
 */
export function defaultOutsideRoots(project: string, ownFolders: readonly string[] = []): readonly OutsideRoot[] {
  const temp = os.tmpdir();
  const home = os.homedir();
  // The same objects for the same places: each trial asks, and the process's feeds are found by them.
  const key = [project, temp, home, ...ownFolders].join('\0');
  const known = rootsOf.get(key);
  if (known) return known;
  const skipFolders = [temp, ...ownFolders]
    .filter((folder) => folder !== project && within(project, folder))
    .map((folder) => path.relative(project, folder).split(path.sep).join('/'));
  const roots: OutsideRoot[] = [{ name: 'project', path: project, depth: null, skipNames: PROJECT_SKIPS, skipFolders }];
  // A home folder that holds the project is watched as the project is, not again at its top.
  if (!within(home, project)) roots.push({ name: 'home', path: home, depth: 1, skipNames: [], skipFolders: [] });
  rootsOf.set(key, roots);
  return roots;
}
const rootsOf = new Map<string, readonly OutsideRoot[]>();

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * (modification time, size) of every entry under the root, breadth-first in name order, up to `maxEntries`; links
 * not followed. A folder walked into needs no stamp of its own, so its type from the listing is enough: only the
 * entries recorded are looked at one by one. Used where change notifications are not to be had.
 */
function walk(root: OutsideRoot, maxEntries: number): Walk {
  const entries = new Map<string, Stamp>();
  const queue: { dir: string; relative: string; depth: number }[] = [{ dir: root.path, relative: '', depth: 0 }];
  for (let at = 0; at < queue.length; at += 1) {
    const next = queue[at] as (typeof queue)[number];
    let dirents: Dirent[];
    try {
      dirents = readdirSync(next.dir, { withFileTypes: true });
    } catch {
      continue; // gone, or not readable: nothing seen there
    }
    const prefix = next.dir.endsWith(path.sep) ? next.dir : `${next.dir}${path.sep}`;
    // A folder's own stamp changes when entries are created or removed directly in it: kept for folders at the
    // depth limit; deeper folders are walked instead.
    const deeper = root.depth === null || next.depth + 1 < root.depth;
    for (const dirent of dirents.sort(byName)) {
      const { name } = dirent;
      const relative = next.relative ? `${next.relative}/${name}` : name;
      if (skipped(root, relative)) continue;
      if (entries.size >= maxEntries) return { entries, truncated: true };
      const full = prefix + name;
      if (deeper && dirent.isDirectory()) {
        queue.push({ dir: full, relative, depth: next.depth + 1 });
        continue;
      }
      let info: Stats | undefined;
      try {
        info = lstatSync(full, { throwIfNoEntry: false });
      } catch {
        continue;
      }
      if (info === undefined) continue;
      if (deeper && info.isDirectory()) queue.push({ dir: full, relative, depth: next.depth + 1 });
      else
        entries.set(relative, {
          mtimeMs: info.mtimeMs,
          size: info.isDirectory() ? 0 : info.size,
          dev: info.dev,
          ino: info.ino,
        });
    }
  }
  return { entries, truncated: false };
}

function compare(before: Walk, after: Walk): Change[] {
  const changes: Change[] = [];
  for (const [entry, now] of after.entries) {
    const was = before.entries.get(entry);
    if (was === undefined) {
      // Past a truncated walk's bound an entry is unseen, not new.
      if (!before.truncated) changes.push({ path: entry, change: 'created' });
    } else if (was.mtimeMs !== now.mtimeMs || was.size !== now.size) changes.push({ path: entry, change: 'modified' });
  }
  if (!after.truncated)
    for (const entry of before.entries.keys())
      if (!after.entries.has(entry)) changes.push({ path: entry, change: 'deleted' });
  return changes.sort(byPath);
}

/**
 * What the notices of one path in one stretch between looks add up to: its existence before the first and after the
 * last. An entry made and removed within the stretch was there for a while: both are told.
 */
/** A path's first and last notice within one stretch between looks. */
interface Told {
  first: Notice;
  last: Notice;
}

function changesOf(told: Map<string, Told>): Change[] {
  const changes: Change[] = [];
  for (const [relative, { first, last }] of told) {
    if (first.before && last.after) changes.push({ path: relative, change: 'modified' });
    else if (first.before) changes.push({ path: relative, change: 'deleted' });
    else {
      changes.push({ path: relative, change: 'created' });
      if (!last.after) changes.push({ path: relative, change: 'deleted' });
    }
  }
  return changes.sort(byPath);
}

/** A root's changes with the files linked from a workspace, as modified, where no change of theirs is told already. */
function withLinked(changes: Change[], linked: ReadonlySet<string> | undefined): Change[] {
  if (!linked || linked.size === 0) return changes;
  const told = new Set(changes.map((change) => change.path));
  const more = [...linked].filter((entry) => !told.has(entry));
  return [...changes, ...more.map((entry): Change => ({ path: entry, change: 'modified' }))].sort(byPath);
}

/** Whether a folder lies where a root looks: in a tree root outside what it leaves out, or a depth-1 root itself. */
function looksAt(root: OutsideRoot, folder: string): boolean {
  if (!within(root.path, folder)) return false;
  const relative = path.relative(root.path, folder).split(path.sep).join('/');
  if (relative === '') return true;
  if (root.depth !== null) return false;
  const names = relative.split('/');
  return !names.some((_, at) => skipped(root, names.slice(0, at + 1).join('/')));
}

/** The changes between two looks, root by root, and the attempts that ran between them. */
interface Stretch {
  attempts: string[];
  byRoot: (Change[] | undefined)[];
  /** Per root: its files a workspace held a link to (see `linkedFrom`). */
  linked: Set<string>[];
}

/**
 * Watches the places outside the workspaces while an unisolated subject's attempts run, looking when an attempt starts
 * and when it ends: what changed between two looks is tied to the attempts running in between — one attempt when they
 * ran one at a time, several (the trial's, not one attempt's) when they overlapped, none when the change came between
 * attempts. It sees what changed, not who changed it, so another process writing there at the time is recorded too.
 *
 * A look is a mark in the process's change notifications (observe/outside-notices) where they are to be had: the
 * changes between two marks are known once the second comes through (`finish` waits for it). Elsewhere, or when a
 * root cannot be watched, a look walks the root, comparing (modification time, size) within `maxEntries`.
 *
 * A file of a root that a workspace holds a hard link to is recorded as modified: its link count changed, and a write
 * through the link changes it unseen by the notifications (they tell the folder of the name written through) and, when
 * it keeps its size and time, by walks. Workspace snapshots tell of such links (file-snapshot `hearLinkedFiles`); the
 * file is found by its inode among the root's entries. A link made, written through and removed before the snapshot is
 * not seen.
 */
export class OutsideWatch implements NoticeListener {
  /** Per root: its feed, or null when it is walked. */
  private readonly feeds: (Feed | null)[];
  private last: (Walk | null)[];
  private readonly truncated: boolean[];
  private readonly running: string[] = [];
  private readonly listed: OutsideWrite[] = [];
  private unlisted = 0;
  /** Stretches not yet added to the record, oldest first; a stretch waits for its mark before its feeds' changes. */
  private readonly stretches: Stretch[] = [];
  private readonly stream: NoticeStream | null;
  private startMark = 0;
  private open = false;
  private done = false;
  /** Looks whose marks have not come through, oldest first. */
  private readonly awaited: { mark: number; stretch: Stretch }[] = [];
  /** What the feeds told since the last mark came through: per root (by index), each path's first and last notice. */
  private told: Map<string, Told>[];
  /** Stretches whose marks came through, to be read at the batch's end. */
  private readonly through: { stretch: Stretch; told: OutsideWatch['told'] }[] = [];
  /** Files linked from outside the roots since the last look, found among the roots' files at the next. */
  private linked: LinkedFile[] = [];
  private readonly stopHearing: () => void;

  constructor(
    private readonly roots: readonly OutsideRoot[],
    private readonly window: OutsideWrites['window'],
    private readonly maxEntries = DEFAULT_OUTSIDE_ENTRIES,
    notices: NoticeStream | null = noticeStream(),
  ) {
    this.feeds = roots.map((root) => notices?.feed(root, maxEntries) ?? null);
    this.told = this.toldAnew();
    this.stream = this.feeds.some((feed) => feed !== null) ? notices : null;
    this.last = roots.map((root, i) => (this.feeds[i] ? null : walk(root, maxEntries)));
    this.truncated = roots.map((_, i) => this.feeds[i]?.truncated ?? this.last[i]?.truncated ?? false);
    this.stopHearing = hearLinkedFiles((folder, files) => this.linkedFrom(folder, files));
    if (this.stream) {
      this.stream.listen(this);
      this.startMark = this.stream.mark();
    }
  }

  /** An attempt (`arm#index`) is about to run: looked at now in an `attempt` window. */
  started(attempt: string): void {
    if (this.window !== 'attempt') return;
    this.look();
    this.running.push(attempt);
  }

  /** An attempt has returned: looked at now in an `attempt` window. */
  ended(attempt: string): void {
    if (this.window !== 'attempt') return;
    this.look();
    this.running.splice(this.running.indexOf(attempt), 1);
  }

  /**
   * The trial's last attempt has returned: the closing look of a `trial` window; resolves once every look's changes
   * are known (its mark has come through, or the notifications were lost, which the record then says).
   */
  async finish(): Promise<void> {
    if (this.window === 'trial') this.look();
    const last = this.awaited.at(-1);
    if (this.stream && last) await this.stream.whenThrough(last.mark);
    this.close();
  }

  /** Stops listening; stretches whose marks never came keep what was told of them. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.stopHearing();
    this.stream?.unlisten(this);
    for (const { stretch } of this.awaited.splice(0)) {
      this.through.push({ stretch, told: this.told });
      this.told = this.toldAnew();
    }
    this.settled();
  }

  private look(): void {
    if (this.done) return;
    const stretch: Stretch = { attempts: [...this.running].sort(), byRoot: [], linked: [] };
    this.stretches.push(stretch);
    this.last = this.roots.map((root, i) => {
      if (this.feeds[i]) return null;
      const before = this.last[i] as Walk;
      const now = walk(root, this.maxEntries);
      if (now.truncated) this.truncated[i] = true;
      stretch.byRoot[i] = compare(before, now);
      return now;
    });
    if (this.linked.length > 0) {
      const linked = this.linked;
      this.linked = [];
      stretch.linked = this.roots.map((_, i) => {
        const found = new Set<string>();
        for (const file of linked) {
          const relative = this.whereIs(i, file);
          if (relative !== null) found.add(relative);
        }
        return found;
      });
    }
    if (this.stream) this.awaited.push({ mark: this.stream.mark(), stretch });
    this.addKnown();
  }

  /**
   * A snapshot found files in `folder` with links elsewhere. A folder where a root looks (the project's fixtures, say)
   * is no workspace: a link between two of the project's files is no write outside one.
   */
  private linkedFrom(folder: string, files: readonly LinkedFile[]): void {
    if (this.done || this.roots.some((root) => looksAt(root, folder))) return;
    this.linked.push(...files);
  }

  /** A linked file's path in root `i`, by its inode: among the feed's files, or the last walk's entries. */
  private whereIs(i: number, file: LinkedFile): string | null {
    const feed = this.feeds[i];
    if (feed) return feed.whereIs(file.dev, file.ino);
    const walked = this.last[i];
    if (!walked) return null;
    walked.inodes ??= new Map([...walked.entries].map(([relative, { dev, ino }]) => [`${dev}:${ino}`, relative]));
    return walked.inodes.get(`${file.dev}:${file.ino}`) ?? null;
  }

  notice(feed: Feed, notice: Notice): void {
    const root = this.feeds.indexOf(feed);
    if (root < 0 || !this.open || this.done) return;
    const ofRoot = this.told[root] as Map<string, Told>;
    const seen = ofRoot.get(notice.path);
    if (seen) seen.last = notice;
    else ofRoot.set(notice.path, { first: notice, last: notice });
  }

  private toldAnew(): Map<string, Told>[] {
    return this.roots.map(() => new Map<string, Told>());
  }

  marked(mark: number): void {
    if (mark === this.startMark) this.open = true;
    while (this.awaited.length > 0 && (this.awaited[0]?.mark ?? Infinity) <= mark) {
      const { stretch } = this.awaited.shift() as { stretch: Stretch };
      this.through.push({ stretch, told: this.told });
      this.told = this.toldAnew();
    }
  }

  settled(): void {
    for (const { stretch, told } of this.through.splice(0)) {
      this.feeds.forEach((feed, i) => {
        if (feed) stretch.byRoot[i] = changesOf(told[i] as Map<string, Told>);
      });
    }
    this.addKnown();
  }

  missed(feed: Feed): void {
    const root = this.feeds.indexOf(feed);
    if (root >= 0) this.truncated[root] = true;
  }

  /** Adds the stretches whose changes are all known, in order, to the record. */
  private addKnown(): void {
    while (this.stretches.length > 0) {
      const stretch = this.stretches[0] as Stretch;
      if (this.roots.some((_, i) => stretch.byRoot[i] === undefined)) return;
      this.stretches.shift();
      this.roots.forEach((root, i) => {
        for (const { path: entry, change } of withLinked(stretch.byRoot[i] ?? [], stretch.linked[i])) {
          if (this.listed.length < MAX_LISTED_CHANGES)
            this.listed.push({ root: root.name, path: entry, change, attempts: stretch.attempts });
          else this.unlisted += 1;
        }
      });
    }
  }

  record(): OutsideWrites {
    return {
      window: this.window,
      roots: this.roots.map((root, i) => ({
        name: root.name,
        depth: root.depth,
        truncated: this.truncated[i] ?? false,
      })),
      maxEntries: this.maxEntries,
      changes: [...this.listed],
      unlisted: this.unlisted,
    };
  }
}

/**
 * How an unisolated subject's writes outside its workspace are watched: around each attempt for a command, over the
 * whole trial for a function (see OutsideWrites.window); null when the subject is isolated or cannot write files.
 */
export function outsideWindow(subject: Pick<Subject, 'kind' | 'isolation'>): OutsideWrites['window'] | null {
  if ((subject.isolation ?? null) !== null) return null;
  return subject.kind === 'command' ? 'attempt' : subject.kind === 'function' ? 'trial' : null;
}
